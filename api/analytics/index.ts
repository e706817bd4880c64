import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import type { Scope } from "../../core/tokens/scopes";
import { linkBots, linkDevices, linkReferrers, linkGeo, linkHeatmap, linkStats, linkTimeline } from "../../core/analytics/stats";
import { linkClicks } from "../../core/analytics/clicks-list";
import { sendSummary } from "../../core/analytics/summary";
import { shareQr } from "../../core/analytics/qr";
import { exportClicks } from "../../core/analytics/export";
import { authPlugin } from "../shared/auth";
import { errors } from "../shared/models";
import { AnalyticsModel as M, AnalyticsViews as V } from "./model";

/** Analytics reads accept `read:stats` or `read:links` (the spec grants "click statistics" to both). */
const READ: Scope[] = ["read:stats", "read:links"];
/**
 * Sends to the chat are actions on the user's links: a token needs `write:links`. In a workspace a
 * viewer may send them, to their own chat.
 */
const SEND = { scope: "write:links" as Scope, role: "viewer" as const };
const detail = (summary: string) => ({ tags: ["analytics"], summary });

/** Link analytics (reads) and delivery of charts, QR codes and exports to the user's Telegram chat. */
export function analyticsApi(deps: Deps) {
  return (
    new Elysia({ name: "analytics", prefix: "/links" })
      .use(authPlugin(deps))
      .get("/:id/stats", ({ userId, params, query }) => linkStats(deps, userId, params.id, query), {
        scope: READ,
        params: M.idParams,
        query: M.period,
        response: V.stats,
        detail: detail("Clicks, uniques, bots and the split by rule and variant over a period"),
      })
      .get("/:id/clicks", ({ userId, params, query }) => linkClicks(deps, userId, params.id, query), {
        scope: READ,
        params: M.idParams,
        query: M.clicks,
        response: V.clicks,
        detail: detail("The link's clicks, newest first, by page"),
      })
      .get("/:id/geo", ({ userId, params, query }) => linkGeo(deps, userId, params.id, query), {
        scope: READ,
        params: M.idParams,
        query: M.period,
        response: V.geo,
        detail: detail("Clicks by country"),
      })
      .get("/:id/devices", ({ userId, params, query }) => linkDevices(deps, userId, params.id, query), {
        scope: READ,
        params: M.idParams,
        query: M.period,
        response: V.devices,
        detail: detail("Clicks by device type, browser and OS"),
      })
      .get("/:id/referrers", ({ userId, params, query }) => linkReferrers(deps, userId, params.id, query), {
        scope: READ,
        params: M.idParams,
        query: M.period,
        response: V.referrers,
        detail: detail("Clicks by the site that sent them"),
      })
      .get("/:id/timeline", ({ userId, params, query }) => linkTimeline(deps, userId, params.id, query), {
        scope: READ,
        params: M.idParams,
        query: M.timeline,
        response: V.timeline,
        detail: detail("Clicks per day or hour in a time zone, empty buckets included"),
      })
      .get("/:id/bots", ({ userId, params, query }) => linkBots(deps, userId, params.id, query), {
        scope: READ,
        params: M.idParams,
        query: M.period,
        response: V.bots,
        detail: detail("Bot clicks by bot"),
      })
      .get("/:id/heatmap", ({ userId, params, query }) => linkHeatmap(deps, userId, params.id, query), {
        scope: READ,
        params: M.idParams,
        query: M.periodTz,
        response: V.heatmap,
        detail: detail("Clicks by weekday and hour (168 cells, day 0 = Sunday)"),
      })
      // These POSTs create nothing on the server: 200
      .post("/send-summary", ({ userId, actorId, body }) => sendSummary(deps, { workspace: userId, person: actorId }, body), {
        scope: SEND,
        body: M.summary,
        response: { 200: V.sent, ...errors(404, 503) },
        detail: detail("Send a summary of your links to your Telegram chat"),
      })
      .post(
        "/:id/share-qr",
        ({ userId, actorId, params, body }) => shareQr(deps, { workspace: userId, person: actorId }, params.id, body.qrImage),
        {
          scope: SEND,
          params: M.idParams,
          body: M.shareQr,
          response: { 200: V.sent, ...errors(503) },
          detail: detail("Send the link's QR code (a PNG) to your Telegram chat"),
        },
      )
      .post(
        "/:id/export",
        async ({ userId, actorId, params, body }) => {
          // the contract's body: the bot alone uses the file name and the cut it also gets
          const { ok, message, rows } = await exportClicks(deps, { workspace: userId, person: actorId }, params.id, body);
          return { ok, message, rows };
        },
        {
          scope: SEND,
          params: M.idParams,
          body: M.export,
          response: { 200: V.exported, ...errors(503) },
          detail: detail("Send the link's clicks to your Telegram chat as CSV or XLSX"),
        },
      )
  );
}
