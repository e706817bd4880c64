import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { createLink, deleteLink, editLink, getLink } from "../../core/links/links";
import { pageOfLinks } from "../../core/links/list";
import { bulkCreateLinks } from "../../core/links/bulk";
import { linkPlacements } from "../../core/tracking/link-watch";
import { authPlugin } from "../shared/auth";
import { catalogApi } from "./catalog";
import { LIST_DEFAULT, LIST_MAX, LinkModel } from "./model";

/** Tracking links (create, edit, get, list, bulk, delete) plus tags, pixels and domains. */
export function linksApi(deps: Deps) {
  const links = new Elysia({ name: "links", prefix: "/links" })
    .use(authPlugin(deps))
    .post("/", async ({ principal, body, set }) => {
      const created = await createLink(deps, principal.user, body);
      set.status = 201;
      return created;
    }, { scope: "write:links", body: LinkModel.create, detail: { tags: ["links"], summary: "Create a tracking link" } })
    .post("/bulk", async ({ principal, body, set }) => {
      const result = await bulkCreateLinks(deps, principal.user, body.urls);
      set.status = result.created > 0 ? 201 : 200;
      return result;
    }, { scope: "write:links", body: LinkModel.bulk, detail: { tags: ["links"], summary: "Create up to 100 links" } })
    .get("/", async ({ userId, query, set }) => {
      const tagIds = query.tags?.trim() ? query.tags.split(",").map(Number) : undefined;
      const page = await pageOfLinks(deps, userId, { tagIds, q: query.q, limit: query.limit ?? LIST_DEFAULT, offset: query.offset ?? 0 });
      set.headers["x-total-count"] = String(page.total);
      return page.items;
    }, {
      scope: "read:links",
      query: LinkModel.listQuery,
      detail: {
        tags: ["links"],
        summary: "List links with counters",
        description: `Newest first. \`tags\`: links with any of these tags (your own; others are 400). \`q\`: search in title, URL and code. Paged by \`limit\` (default ${LIST_DEFAULT}, at most ${LIST_MAX}) and \`offset\`; the X-Total-Count header holds the number of matching links.`,
        responses: { 200: { description: "array of list items", headers: { "X-Total-Count": { description: "links matching the filters, all pages", schema: { type: "integer" } } } } },
      },
    })
    .get("/:id", ({ userId, params }) => getLink(deps, userId, params.id), {
      scope: "read:links", params: LinkModel.idParams, detail: { tags: ["links"], summary: "Get one link" },
    })
    .get("/:id/placements", ({ userId, params }) => linkPlacements(deps, userId, params.id), {
      scope: "read:links",
      params: LinkModel.idParams,
      response: LinkModel.placements,
      detail: {
        tags: ["links"],
        summary: "Where the link was posted",
        description: "The posts carrying the link (in the text, behind a text link or on a button) that the owner's trackers with `watch_links` matched: one item per post, newest first (50 at most), with the number of posts and of distinct chats.",
      },
    })
    .patch("/:id", ({ userId, params, body }) => editLink(deps, userId, params.id, body), {
      scope: "write:links", params: LinkModel.idParams, body: LinkModel.edit, detail: { tags: ["links"], summary: "Edit a link" },
    })
    .delete("/:id", async ({ userId, params }) => {
      await deleteLink(deps, userId, params.id);
      return { success: true };
    }, { scope: "write:links", params: LinkModel.idParams, detail: { tags: ["links"], summary: "Delete a link and its clicks" } });
  return new Elysia({ name: "links-feature" }).use(links).use(catalogApi(deps));
}
