import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { createLink, deleteLink, editLink, getLink, listLinks } from "../../core/links/links";
import { bulkCreateLinks } from "../../core/links/bulk";
import { authPlugin } from "../shared/auth";
import { catalogApi } from "./catalog";
import { LinkModel } from "./model";

/** Tracking links (create, edit, get, list, bulk, delete) plus tags, pixels and domains. */
export function linksApi(deps: Deps) {
  const links = new Elysia({ name: "links", prefix: "/links" })
    .use(authPlugin(deps))
    .post("/", async ({ principal, body, set }) => {
      const created = await createLink(deps, principal.user, body);
      set.status = 201;
      return created;
    }, { scope: "write:links", body: LinkModel.create, detail: { tags: ["links"], summary: "Create a tracking link" } })
    .post("/bulk", ({ principal, body, set }) => {
      const result = bulkCreateLinks(deps, principal.user, body.urls);
      set.status = result.created > 0 ? 201 : 200;
      return result;
    }, { scope: "write:links", body: LinkModel.bulk, detail: { tags: ["links"], summary: "Create up to 100 links" } })
    .get("/", ({ userId, query }) => {
      const tagIds = query.tags?.split(",").map((s) => Number(s.trim())).filter((n) => n > 0);
      return listLinks(deps, userId, { tagIds });
    }, { scope: "read:links", query: LinkModel.listQuery, detail: { tags: ["links"], summary: "List links with counters" } })
    .get("/:id", ({ userId, params }) => getLink(deps, userId, params.id), {
      scope: "read:links", params: LinkModel.idParams, detail: { tags: ["links"], summary: "Get one link" },
    })
    .patch("/:id", ({ userId, params, body }) => editLink(deps, userId, params.id, body), {
      scope: "write:links", params: LinkModel.idParams, body: LinkModel.edit, detail: { tags: ["links"], summary: "Edit a link" },
    })
    .delete("/:id", ({ userId, params }) => {
      deleteLink(deps, userId, params.id);
      return { success: true };
    }, { scope: "write:links", params: LinkModel.idParams, detail: { tags: ["links"], summary: "Delete a link and its clicks" } });
  return new Elysia({ name: "links-feature" }).use(links).use(catalogApi(deps));
}
