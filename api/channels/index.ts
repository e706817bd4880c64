import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { authPlugin } from "../shared/auth";
import { errors } from "../shared/models";
import { ChannelsModel as M } from "./model";
import { invitesApi } from "./invites";
import { addChannel, channelView, deleteChannel, listChannels, ownedChannel } from "../../core/channels/channels";
import { channelStats, joinJournal } from "../../core/channels/stats";
import { exportJoinJournal, joinSeries, sendJoinChart } from "../../core/channels/export";
import { languageOf } from "../../core/accounts/users";
import { timeZoneOf } from "../../core/i18n/zone";

const channels = { tags: ["channels"] };
const ok = { success: true } as const;

/**
 * Channels, their invite links, joins and leaves, and join requests (CONTRACT §8). Scopes:
 * read:channels for reads, write:channels for changes. Another account's channel, invite or
 * request is 404 everywhere.
 */
export function channelsApi(deps: Deps) {
  return new Elysia({ name: "channels" })
    .use(authPlugin(deps))
    .get("/channels", async ({ userId }) => (await listChannels(deps, userId)).map(channelView), {
      scope: "read:channels",
      response: t.Array(M.channel),
      detail: { ...channels, summary: "Your channels" },
    })
    .post(
      "/channels",
      async ({ userId, body, set }) => {
        const row = await addChannel(deps, userId, body.chat);
        set.status = 201;
        return channelView(row);
      },
      {
        scope: "write:channels",
        body: M.add,
        response: { 201: M.channel, ...errors(409, 503) },
        detail: {
          ...channels,
          summary: "Add a chat you administer where the bot is an administrator (403 not_chat_admin, 409 bot_not_admin)",
        },
      },
    )
    .get("/channels/:id", async ({ userId, params }) => channelView(await ownedChannel(deps, userId, params.id)), {
      scope: "read:channels",
      params: M.idParams,
      response: M.channel,
      detail: { ...channels, summary: "One channel" },
    })
    .delete("/channels/:id", async ({ userId, params }) => (await deleteChannel(deps, userId, params.id), ok), {
      scope: "write:channels",
      params: M.idParams,
      response: M.ok,
      detail: { ...channels, summary: "Forget a channel for this account only" },
    })
    .get("/channels/:id/stats", ({ userId, params }) => channelStats(deps, userId, params.id), {
      scope: "read:channels",
      params: M.idParams,
      response: { 200: M.channelStats, ...errors(503) },
      detail: { ...channels, summary: "Joins, leaves and members, by invite" },
    })
    .get(
      "/channels/:id/members",
      ({ userId, params, query }) =>
        joinJournal(deps, userId, params.id, { page: query.page, limit: query.limit, inviteId: query.invite_id }),
      {
        scope: "read:channels",
        params: M.idParams,
        query: M.membersQuery,
        response: { 200: M.members, ...errors(503) },
        detail: { ...channels, summary: "The join journal, newest join first" },
      },
    )
    .get(
      "/channels/:id/series",
      async ({ userId, actorId, params, query }) => {
        // the reader's calendar days, labelled as their language writes a day and month
        const lang = (await languageOf(deps.asyncDb, actorId)).effective;
        return joinSeries(deps, userId, params.id, query.days ?? 30, query.invite_id, lang, await timeZoneOf(deps, actorId));
      },
      {
        scope: "read:channels",
        params: M.idParams,
        query: M.seriesQuery,
        response: { 200: M.series, ...errors(503) },
        detail: {
          ...channels,
          summary: "Joins per day by invite, and leaves per day (the reader's calendar days in their time zone, oldest first)",
        },
      },
    )
    .post(
      "/channels/:id/export",
      ({ userId, actorId, params, body }) => exportJoinJournal(deps, { workspace: userId, person: actorId }, params.id, body),
      {
        scope: "read:channels",
        params: M.idParams,
        body: M.export,
        response: { 200: M.sent, ...errors(503) },
        detail: { ...channels, summary: "Send the join journal to your Telegram chat as CSV or XLSX" },
      },
    )
    .post(
      "/channels/:id/chart",
      ({ userId, actorId, params, body }) => sendJoinChart(deps, { workspace: userId, person: actorId }, params.id, body),
      {
        scope: "read:channels",
        params: M.idParams,
        body: M.chart,
        response: { 200: M.sent, ...errors(503) },
        detail: { ...channels, summary: "Send a PNG of joins and leaves per day to your Telegram chat" },
      },
    )
    .use(invitesApi(deps));
}
