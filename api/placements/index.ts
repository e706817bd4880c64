import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { authPlugin } from "../shared/auth";
import { SCOPE_ALSO_EXTENSION } from "../shared/scope-table";
import { requireScope } from "../../core/accounts/principal";
import { errors } from "../shared/models";
import { CreatedPlacementModel, PlacementModel, PlacementsModel as M } from "./model";
import {
  bindInvite,
  bindLink,
  createPlacement,
  deletePlacement,
  getPlacement,
  listPlacements,
  placementViews,
  updatePlacement,
  type PlacementInput,
} from "../../core/placements/placements";
import type { Post } from "../../core/ads/post";

const placements = { tags: ["placements"] };
const ok = { success: true } as const;

/** The API's snake_case body as core's input. */
function inputOf(body: {
  venue?: string;
  name?: string;
  publish_at?: string | null;
  cost?: PlacementInput["cost"];
  post?: { text: string; entities?: unknown[]; buttons?: unknown };
  channel_ids?: number[];
  post_url?: string | null;
  notes?: string | null;
  views?: number;
}): PlacementInput {
  const { publish_at, post_url, channel_ids, post, ...rest } = body;
  return {
    ...rest,
    ...(publish_at !== undefined ? { publishAt: publish_at } : {}),
    ...(post_url !== undefined ? { postUrl: post_url } : {}),
    ...(channel_ids !== undefined ? { channelIds: channel_ids } : {}),
    ...(post ? { post: { ...post, entities: post.entities ?? [] } as Post } : {}),
  };
}

/**
 * Placements: the ads an account bought, each with its links, invites and figures. Scopes:
 * read:links for reads, write:links for changes, and write:channels besides for what makes or binds
 * invite links (a create with channel_ids or a post linking to an own channel, POST /:id/invites).
 * Another account's placement, link or invite is 404.
 */
export function placementsApi(deps: Deps) {
  return new Elysia({ name: "placements" })
    .use(authPlugin(deps))
    .post(
      "/placements",
      async ({ principal, body, set }) => {
        const made = await createPlacement(deps, principal.user, inputOf(body), {
          beforeInvites: () => requireScope(principal, "write:channels"),
        });
        set.status = 201;
        return made;
      },
      {
        scope: "write:links",
        body: M.create,
        response: { 201: CreatedPlacementModel, ...errors(404, 409, 503) },
        detail: {
          ...placements,
          summary: "Record an ad you bought; with post, the post comes back with new tracking and invite links bound to it",
          description: "Making invite links (channel_ids, or a post linking to one of your channels) needs `write:channels` too.",
          [SCOPE_ALSO_EXTENSION]: "`write:channels` when it makes invites",
        },
      },
    )
    .get("/placements", ({ userId, query }) => listPlacements(deps, userId, query), {
      scope: "read:links",
      query: M.listQuery,
      response: t.Array(PlacementModel),
      detail: { ...placements, summary: "Your placements dated in the period, each with its figures, sorted by any of them" },
    })
    .get("/placements/:id", ({ userId, params }) => getPlacement(deps, userId, params.id), {
      scope: "read:links",
      params: M.idParams,
      response: PlacementModel,
      detail: { ...placements, summary: "One placement with its links, invites and figures" },
    })
    .patch("/placements/:id", ({ userId, params, body }) => updatePlacement(deps, userId, params.id, inputOf(body)), {
      scope: "write:links",
      params: M.idParams,
      body: M.patch,
      response: PlacementModel,
      detail: { ...placements, summary: "Change a placement; views typed by hand are a reading now" },
    })
    .delete("/placements/:id", async ({ userId, params }) => (await deletePlacement(deps, userId, params.id), ok), {
      scope: "write:links",
      params: M.idParams,
      response: M.ok,
      detail: { ...placements, summary: "Forget a placement (its links and invites stay)" },
    })
    .post(
      "/placements/:id/links",
      async ({ userId, params, body, set }) => {
        const placement = await bindLink(deps, userId, params.id, body.link_id);
        set.status = 201;
        return placement;
      },
      {
        scope: "write:links",
        params: M.idParams,
        body: M.bindLink,
        response: { 201: PlacementModel, ...errors(409) },
        detail: { ...placements, summary: "Bind one of your tracking links (409 already_bound when another placement has it)" },
      },
    )
    .post(
      "/placements/:id/invites",
      async ({ principal, userId, params, body, set }) => {
        requireScope(principal, "write:channels");
        const placement = await bindInvite(deps, userId, params.id, body.invite_id);
        set.status = 201;
        return placement;
      },
      {
        scope: "write:links",
        params: M.idParams,
        body: M.bindInvite,
        response: { 201: PlacementModel, ...errors(409) },
        detail: {
          ...placements,
          summary: "Bind one of your invite links (409 already_bound when another placement has it)",
          description: "Needs `write:channels` too.",
          [SCOPE_ALSO_EXTENSION]: "`write:channels`",
        },
      },
    )
    .get(
      "/placements/:id/views",
      async ({ userId, params }) =>
        (await placementViews(deps, userId, params.id)).map((v) => ({ at: v.at.toISOString(), views: v.views })),
      {
        scope: "read:links",
        params: M.idParams,
        response: M.views,
        detail: { ...placements, summary: "The ad post's views as read over time, oldest first" },
      },
    );
}
