import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { orphanVisitsOf } from "../../core/analytics/orphans";
import { authPlugin } from "../shared/auth";
import { DateTime } from "../shared/models";
import { PeriodModel } from "./model";

const OrphanModel = {
  query: t.Object({ period: t.Optional(PeriodModel) }),
  answer: t.Object({
    total: t.Integer({ description: "visits in the period" }),
    items: t.Array(t.Object({ code: t.String(), count: t.Integer(), lastAt: DateTime("the latest visit") })),
  }),
};

/** Visits to codes that found no active link, under the caller's domains or of the caller's disabled and deleted links. */
export function orphanVisitsApi(deps: Deps) {
  return new Elysia({ name: "orphan-visits" })
    .use(authPlugin(deps))
    .get("/orphan-visits", ({ userId, query }) => orphanVisitsOf(deps, userId, query), {
      scope: "read:stats",
      query: OrphanModel.query,
      response: { 200: OrphanModel.answer },
      detail: { tags: ["analytics"], summary: "Orphan visits by code" },
    });
}
