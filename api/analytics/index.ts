import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import type { Scope } from "../../core/tokens/scopes";
import { linkBots, linkClicks, linkDevices, linkGeo, linkHeatmap, linkStats, linkTimeline } from "../../core/analytics/stats";
import { sendSummary } from "../../core/analytics/summary";
import { shareQr } from "../../core/analytics/qr";
import { exportClicks } from "../../core/analytics/export";
import { authPlugin } from "../shared/auth";
import { AnalyticsModel as M } from "./model";

/** Analytics reads accept `read:stats` or `read:links` (the spec grants "click statistics" to both). */
const READ: Scope[] = ["read:stats", "read:links"];
/** Sends to the chat are actions on the user's links: `write:links`. */
const SEND: Scope = "write:links";
const detail = { tags: ["analytics"] };

/** Link analytics (reads) and delivery of charts, QR codes and exports to the user's Telegram chat. */
export function analyticsApi(deps: Deps) {
  return new Elysia({ name: "analytics", prefix: "/links" })
    .use(authPlugin(deps))
    .get("/:id/stats", ({ userId, params, query }) => linkStats(deps, userId, params.id, query), { scope: READ, params: M.idParams, query: M.period, detail })
    .get("/:id/clicks", ({ userId, params, query }) => linkClicks(deps, userId, params.id, query), { scope: READ, params: M.idParams, query: M.clicks, detail })
    .get("/:id/geo", ({ userId, params, query }) => linkGeo(deps, userId, params.id, query), { scope: READ, params: M.idParams, query: M.period, detail })
    .get("/:id/devices", ({ userId, params, query }) => linkDevices(deps, userId, params.id, query), { scope: READ, params: M.idParams, query: M.period, detail })
    .get("/:id/timeline", ({ userId, params, query }) => linkTimeline(deps, userId, params.id, query), { scope: READ, params: M.idParams, query: M.timeline, detail })
    .get("/:id/bots", ({ userId, params, query }) => linkBots(deps, userId, params.id, query), { scope: READ, params: M.idParams, query: M.period, detail })
    .get("/:id/heatmap", ({ userId, params, query }) => linkHeatmap(deps, userId, params.id, query), { scope: READ, params: M.idParams, query: M.periodTz, detail })
    // These POSTs create nothing on the server: 200
    .post("/send-summary", ({ userId, body }) => sendSummary(deps, userId, body), { scope: SEND, body: M.summary, detail })
    .post("/:id/share-qr", ({ userId, params, body }) => shareQr(deps, userId, params.id, body.qrImage), { scope: SEND, params: M.idParams, body: M.shareQr, detail })
    .post("/:id/export", async ({ userId, params, body }) => {
      // the contract's body: the bot alone uses the file name and the cut it also gets
      const { ok, message, rows } = await exportClicks(deps, userId, params.id, body);
      return { ok, message, rows };
    }, { scope: SEND, params: M.idParams, body: M.export, detail });
}
