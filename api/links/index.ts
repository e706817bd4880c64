import { withHeaders } from "@elysiajs/openapi";
import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { createLink, deleteLink, editLink, getLink } from "../../core/links/links";
import { pageOfLinks } from "../../core/links/list";
import { bulkCreateLinks } from "../../core/links/bulk";
import { linkPlacements } from "../../core/tracking/link-watch";
import { authPlugin } from "../shared/auth";
import { catalogApi } from "./catalog";
import { errors, OkModel } from "../shared/models";
import { LIST_DEFAULT, LIST_MAX, LinkDetailsModel, LinkListItemModel, LinkModel, LinkViews } from "./model";

/** Tracking links (create, edit, get, list, bulk, delete) plus tags, pixels and domains. */
export function linksApi(deps: Deps) {
  const links = new Elysia({ name: "links", prefix: "/links" })
    .use(authPlugin(deps))
    .post(
      "/",
      async ({ principal, body, set }) => {
        const created = await createLink(deps, principal.user, body);
        set.status = 201;
        return created;
      },
      {
        scope: "write:links",
        body: LinkModel.create,
        response: { 201: LinkViews.summary, ...errors(409) },
        detail: { tags: ["links"], summary: "Create a tracking link (409 when the custom code is taken)" },
      },
    )
    .post(
      "/bulk",
      async ({ principal, body, set }) => {
        const result = await bulkCreateLinks(deps, principal.user, body.urls);
        set.status = result.created > 0 ? 201 : 200;
        return result;
      },
      {
        scope: "write:links",
        body: LinkModel.bulk,
        response: { 200: LinkViews.bulk, 201: LinkViews.bulk },
        detail: { tags: ["links"], summary: "Create up to 100 links (201 when any was created, else 200 with every failure)" },
      },
    )
    .get(
      "/",
      async ({ userId, query, set }) => {
        const tagIds = query.tags?.trim() ? query.tags.split(",").map(Number) : undefined;
        const page = await pageOfLinks(deps, userId, { tagIds, q: query.q, limit: query.limit ?? LIST_DEFAULT, offset: query.offset ?? 0 });
        set.headers["x-total-count"] = String(page.total);
        return page.items;
      },
      {
        scope: "read:links",
        query: LinkModel.listQuery,
        response: withHeaders(t.Array(LinkListItemModel), {
          "X-Total-Count": t.Integer({ description: "links matching the filters, all pages" }),
        }),
        detail: {
          tags: ["links"],
          summary: "List links with counters",
          description: `Newest first. \`tags\`: links with any of these tags (your own; others are 400). \`q\`: search in title, URL and code. Paged by \`limit\` (default ${LIST_DEFAULT}, at most ${LIST_MAX}) and \`offset\`; the X-Total-Count header holds the number of matching links.`,
        },
      },
    )
    .get("/:id", ({ userId, params }) => getLink(deps, userId, params.id), {
      scope: "read:links",
      params: LinkModel.idParams,
      response: LinkDetailsModel,
      detail: { tags: ["links"], summary: "Get one link" },
    })
    .get("/:id/placements", ({ userId, params }) => linkPlacements(deps, userId, params.id), {
      scope: "read:links",
      params: LinkModel.idParams,
      response: LinkModel.placements,
      detail: {
        tags: ["links"],
        summary: "Where the link was posted",
        description:
          "The posts carrying the link (in the text, behind a text link or on a button) that the owner's trackers with `watch_links` matched: one item per post, newest first (50 at most), with the number of posts and of distinct chats.",
      },
    })
    .patch("/:id", ({ userId, params, body }) => editLink(deps, userId, params.id, body), {
      scope: "write:links",
      params: LinkModel.idParams,
      body: LinkModel.edit,
      response: { 200: LinkViews.summary, ...errors(409) },
      detail: { tags: ["links"], summary: "Edit a link" },
    })
    .delete(
      "/:id",
      async ({ userId, params }) => {
        await deleteLink(deps, userId, params.id);
        return { success: true };
      },
      {
        scope: "write:links",
        params: LinkModel.idParams,
        response: OkModel,
        detail: { tags: ["links"], summary: "Delete a link and its clicks" },
      },
    );
  return new Elysia({ name: "links-feature" }).use(links).use(catalogApi(deps));
}
