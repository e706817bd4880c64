import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { authPlugin } from "../shared/auth";
import { errors } from "../shared/models";
import { ChannelsModel as M } from "./model";
import { invitePlacements } from "../../core/tracking/link-watch";
import { LinkModel } from "../links/model";
import { createInvite, inviteView, inviteViews, listInvites, ownedInvite, revokeInvite, updateInvite } from "../../core/channels/invites";
import { inviteStats } from "../../core/channels/stats";
import { listRequests, requestView, settleRequest } from "../../core/channels/requests";

const channels = { tags: ["channels"] };

/** A channel's invite links and its join requests (channelsApi takes them in): the same scopes and 404s. */
export function invitesApi(deps: Deps) {
  return new Elysia({ name: "channel-invites" })
    .use(authPlugin(deps))
    .get("/channels/:id/requests", async ({ userId, params }) => (await listRequests(deps, userId, params.id)).map(requestView), {
      scope: "read:channels",
      params: M.idParams,
      response: { 200: t.Array(M.request), ...errors(503) },
      detail: { ...channels, summary: "Waiting join requests" },
    })
    .get("/channels/:id/invites", async ({ userId, params }) => inviteViews(deps, await listInvites(deps, userId, params.id)), {
      scope: "read:channels",
      params: M.idParams,
      response: t.Array(M.invite),
      detail: { ...channels, summary: "The channel's invite links" },
    })
    .post(
      "/channels/:id/invites",
      async ({ userId, params, body, set }) => {
        const row = await createInvite(deps, userId, params.id, body);
        set.status = 201;
        return inviteView(deps, row);
      },
      {
        scope: "write:channels",
        params: M.idParams,
        body: M.createInvite,
        response: { 201: M.invite, ...errors(409, 503) },
        detail: { ...channels, summary: "Make an invite link (createChatInviteLink); Telegram's refusal is 409 telegram_refused" },
      },
    )
    .get("/invites/:id", async ({ userId, params }) => inviteView(deps, await ownedInvite(deps, userId, params.id)), {
      scope: "read:channels",
      params: M.idParams,
      response: M.invite,
      detail: { ...channels, summary: "One invite link with its counts" },
    })
    .patch("/invites/:id", async ({ userId, params, body }) => inviteView(deps, await updateInvite(deps, userId, params.id, body)), {
      scope: "write:channels",
      params: M.idParams,
      body: M.patchInvite,
      response: { 200: M.invite, ...errors(409, 503) },
      detail: { ...channels, summary: "Change an invite link (editChatInviteLink)" },
    })
    .delete("/invites/:id", async ({ userId, params }) => inviteView(deps, await revokeInvite(deps, userId, params.id)), {
      scope: "write:channels",
      params: M.idParams,
      response: { 200: M.invite, ...errors(409, 503) },
      detail: { ...channels, summary: "Revoke the invite link (revokeChatInviteLink); its history stays" },
    })
    .get("/invites/:id/placements", ({ userId, params }) => invitePlacements(deps, userId, params.id), {
      scope: "read:channels",
      params: M.idParams,
      response: LinkModel.placements,
      detail: {
        ...channels,
        summary: "Where the invite link was posted",
        description:
          "As for GET /api/links/:id/placements: the posts carrying the invite link that the owner's `watch_links` trackers matched, newest first (50 at most).",
      },
    })
    .get("/invites/:id/stats", ({ userId, params }) => inviteStats(deps, userId, params.id), {
      scope: "read:channels",
      params: M.idParams,
      response: M.inviteStats,
      detail: { ...channels, summary: "Clicks, joins, retention and cost of an invite link" },
    })
    .post("/requests/:id/approve", async ({ userId, params }) => requestView(await settleRequest(deps, userId, params.id, "approve")), {
      scope: "write:channels",
      params: M.idParams,
      response: { 200: M.request, ...errors(409, 503) },
      detail: { ...channels, summary: "Approve a join request" },
    })
    .post("/requests/:id/decline", async ({ userId, params }) => requestView(await settleRequest(deps, userId, params.id, "decline")), {
      scope: "write:channels",
      params: M.idParams,
      response: { 200: M.request, ...errors(409, 503) },
      detail: { ...channels, summary: "Decline a join request" },
    });
}
