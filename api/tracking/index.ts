import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { authPlugin } from "../shared/auth";
import { TrackingModel } from "./model";
import { createTracker, deleteTracker, getTracker, listTrackers, trackerLimits, trackerResponse, updateTracker } from "../../core/tracking/trackers";
import { listMatches, markAllRead, unreadCount } from "../../core/tracking/matches";
import { sendTestNotification } from "../../core/tracking/notify";
import { trackingFilters } from "../../core/tracking/filters";

const detail = { tags: ["tracking"] };

/**
 * Keyword trackers and their matches. Scopes: read:tracking for reads, write:tracking for changes.
 * /limits and /filters are registered before /:id so they are never taken for an id.
 */
export function trackingApi(deps: Deps) {
  return new Elysia({ name: "tracking", prefix: "/tracking" })
    .use(authPlugin(deps))
    .get("/limits", ({ userId }) => trackerLimits(deps, userId), { scope: "read:tracking", detail })
    .get("/filters", () => trackingFilters(), { scope: "read:tracking", detail })
    .post("/", async ({ userId, body, set }) => {
      const row = await createTracker(deps, userId, body);
      set.status = 201;
      return trackerResponse(row);
    }, { scope: "write:tracking", body: TrackingModel.create, detail })
    .get("/", async ({ userId }) => (await listTrackers(deps, userId)).map(trackerResponse), { scope: "read:tracking", detail })
    .get("/:id", async ({ userId, params }) => trackerResponse(await getTracker(deps, userId, params.id)), { scope: "read:tracking", params: TrackingModel.idParams, detail })
    .patch("/:id", async ({ userId, params, body }) => trackerResponse(await updateTracker(deps, userId, params.id, body)), {
      scope: "write:tracking", params: TrackingModel.idParams, body: TrackingModel.patch, detail,
    })
    .delete("/:id", async ({ userId, params }) => {
      await deleteTracker(deps, userId, params.id);
      return { success: true };
    }, { scope: "write:tracking", params: TrackingModel.idParams, detail })
    .get("/:id/matches", ({ userId, params, query }) => listMatches(deps, userId, params.id, query.limit ?? 20, query.offset ?? 0), {
      scope: "read:tracking", params: TrackingModel.idParams, query: TrackingModel.matchesQuery, detail,
    })
    .get("/:id/matches/unread", async ({ userId, params }) => ({ count: await unreadCount(deps, userId, params.id) }), { scope: "read:tracking", params: TrackingModel.idParams, detail })
    .post("/:id/matches/read-all", async ({ userId, params }) => {
      await markAllRead(deps, userId, params.id);
      return { success: true };
    }, { scope: "write:tracking", params: TrackingModel.idParams, detail })
    .post("/:id/test", async ({ userId, params }) => {
      await sendTestNotification(deps, userId, params.id);
      return { success: true };
    }, { scope: "write:tracking", params: TrackingModel.idParams, detail });
}
