import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { authPlugin } from "../shared/auth";
import { errors, OkModel } from "../shared/models";
import { TrackingModel, TrackingViews as V } from "./model";
import {
  createTracker,
  deleteTracker,
  getTracker,
  listTrackers,
  trackerLimits,
  trackerResponse,
  updateTracker,
} from "../../core/tracking/trackers";
import { listMatches, markAllRead, unreadCount } from "../../core/tracking/matches";
import { sendTestNotification } from "../../core/tracking/notify";
import { trackingFilters } from "../../core/tracking/filters";

const detail = (summary: string) => ({ tags: ["tracking"], summary });

/**
 * Keyword trackers and their matches. Scopes: read:tracking for reads, write:tracking for changes.
 * /limits and /filters are registered before /:id so they are never taken for an id.
 */
export function trackingApi(deps: Deps) {
  return new Elysia({ name: "tracking", prefix: "/tracking" })
    .use(authPlugin(deps))
    .get("/limits", ({ userId }) => trackerLimits(deps, userId), {
      scope: "read:tracking",
      response: V.limits,
      detail: detail("How many trackers you have and your plan allows"),
    })
    .get("/filters", () => trackingFilters(), {
      scope: "read:tracking",
      response: V.filters,
      detail: detail("The countries, languages and categories a tracker can filter by"),
    })
    .post(
      "/",
      async ({ userId, body, set }) => {
        const row = await createTracker(deps, userId, body);
        set.status = 201;
        return trackerResponse(row);
      },
      {
        scope: "write:tracking",
        body: TrackingModel.create,
        response: { 201: V.tracker, ...errors(503) },
        detail: detail("Create a keyword tracker"),
      },
    )
    .get("/", async ({ userId }) => (await listTrackers(deps, userId)).map(trackerResponse), {
      scope: "read:tracking",
      response: t.Array(V.tracker),
      detail: detail("Your trackers"),
    })
    .get("/:id", async ({ userId, params }) => trackerResponse(await getTracker(deps, userId, params.id)), {
      scope: "read:tracking",
      params: TrackingModel.idParams,
      response: V.tracker,
      detail: detail("Get one tracker"),
    })
    .patch("/:id", async ({ userId, params, body }) => trackerResponse(await updateTracker(deps, userId, params.id, body)), {
      scope: "write:tracking",
      params: TrackingModel.idParams,
      body: TrackingModel.patch,
      response: { 200: V.tracker, ...errors(503) },
      detail: detail("Change a tracker"),
    })
    .delete(
      "/:id",
      async ({ userId, params }) => {
        await deleteTracker(deps, userId, params.id);
        return { success: true };
      },
      { scope: "write:tracking", params: TrackingModel.idParams, response: OkModel, detail: detail("Delete a tracker and its matches") },
    )
    .get("/:id/matches", ({ userId, params, query }) => listMatches(deps, userId, params.id, query.limit ?? 20, query.offset ?? 0), {
      scope: "read:tracking",
      params: TrackingModel.idParams,
      query: TrackingModel.matchesQuery,
      response: V.matches,
      detail: detail("A page of the tracker's matches, newest first"),
    })
    .get("/:id/matches/unread", async ({ userId, params }) => ({ count: await unreadCount(deps, userId, params.id) }), {
      scope: "read:tracking",
      params: TrackingModel.idParams,
      response: V.unread,
      detail: detail("How many matches are unread"),
    })
    .post(
      "/:id/matches/read-all",
      async ({ userId, params }) => {
        await markAllRead(deps, userId, params.id);
        return { success: true };
      },
      { scope: "write:tracking", params: TrackingModel.idParams, response: OkModel, detail: detail("Mark every match read") },
    )
    .post(
      "/:id/test",
      async ({ userId, params }) => {
        await sendTestNotification(deps, userId, params.id);
        return { success: true };
      },
      {
        scope: "write:tracking",
        params: TrackingModel.idParams,
        response: { 200: OkModel, ...errors(503) },
        detail: detail("Send a test notification the way the tracker notifies"),
      },
    );
}
