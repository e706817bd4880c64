import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { exportPlacements } from "../../core/placements/table-export";
import { authPlugin } from "../shared/auth";
import { errors, Int, Words } from "../shared/models";
import { PeriodModel } from "../analytics/model";

/**
 * POST /api/placements/export: the Ads table (the bot's /ads rows for a period and an order) sent to
 * the user's Telegram chat as CSV or XLSX, like a link's click export. Scope read:links.
 */
export function placementsExportApi(deps: Deps) {
  return new Elysia({ name: "placements-export" }).use(authPlugin(deps)).post(
    "/placements/export",
    async ({ userId, actorId, body }) => {
      const { ok, message, rows } = await exportPlacements(deps, { workspace: userId, person: actorId }, body);
      return { ok, message, rows };
    },
    {
      scope: "read:links",
      body: t.Object({
        format: Words(["csv", "xlsx"]),
        period: t.Optional(PeriodModel),
        sort: t.Optional(t.String({ description: "a figure of the table; cost per subscriber who stayed when left out" })),
        order: t.Optional(Words(["asc", "desc"], { description: "default: cheapest first for costs, most first for counts" })),
      }),
      response: { 200: t.Object({ ok: t.Boolean(), message: t.String(), rows: Int() }), ...errors(503) },
      detail: { tags: ["placements"], summary: "Send the Ads table to your Telegram chat as CSV or XLSX" },
    },
  );
}
