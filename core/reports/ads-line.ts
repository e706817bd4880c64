/**
 * The report's line about ads: of the placements that brought anyone in the report's period, the
 * best (most joins, then most unique clicks) and the worst (fewest), each with what it brought.
 * Joins are counted on the placement's invites and clicks on its links, inside the period only.
 * It reads the placement tables itself (core/placements reads the settings, so this folder does not
 * import that one).
 */
import { and, count, eq, gte, inArray, lt } from "drizzle-orm";
import type { Deps } from "../deps";
import type { Range } from "../analytics/range";
import { totals } from "../analytics/query";
import { t, type Language } from "../i18n/translate";

export interface PlacementOfPeriod {
  name: string;
  joins: number;
  clicks: number;
}

/** The best and the worst placement of `range` (the same one when only one brought anything), or null when none did. */
export async function bestAndWorst(
  deps: Deps,
  userId: number,
  range: Range,
): Promise<{ best: PlacementOfPeriod; worst: PlacementOfPeriod } | null> {
  const db = deps.asyncDb;
  const { placements: table, placementLinks, placementInvites } = db.tables;
  const rows = await db.select({ id: table.id, name: table.name }).from(table).where(eq(table.userId, userId));
  if (!rows.length) return null;
  const ids = rows.map((r) => r.id);
  const links = await db.select().from(placementLinks).where(inArray(placementLinks.placementId, ids));
  const invites = await db.select().from(placementInvites).where(inArray(placementInvites.placementId, ids));
  const placements = rows.map((r) => ({
    name: r.name,
    links: links.filter((l) => l.placementId === r.id).map((l) => ({ id: l.linkId })),
    invites: invites.filter((i) => i.placementId === r.id).map((i) => ({ id: i.inviteId })),
  }));
  const { channelJoins } = deps.asyncDb.tables;
  const seen: PlacementOfPeriod[] = [];
  for (const p of placements) {
    const inviteIds = p.invites.map((i) => i.id);
    const joins = inviteIds.length
      ? Number(
          (
            await deps.asyncDb
              .select({ n: count() })
              .from(channelJoins)
              .where(
                and(
                  inArray(channelJoins.inviteId, inviteIds),
                  gte(channelJoins.joinedAt, new Date(range.from)),
                  lt(channelJoins.joinedAt, new Date(range.to)),
                ),
              )
          )[0]?.n ?? 0,
        )
      : 0;
    const clicks = (
      await totals(
        deps,
        p.links.map((l) => l.id),
        range,
      )
    ).uniques;
    if (joins || clicks) seen.push({ name: p.name, joins, clicks });
  }
  if (!seen.length) return null;
  seen.sort((a, b) => b.joins - a.joins || b.clicks - a.clicks);
  return { best: seen[0]!, worst: seen.at(-1)! };
}

/** The line in `lang` (HTML), or null without placements that brought anyone. */
export function bestAndWorstLine(lang: Language, found: { best: PlacementOfPeriod; worst: PlacementOfPeriod } | null): string | null {
  if (!found) return null;
  const { best, worst } = found;
  const esc = Bun.escapeHTML;
  if (best === worst) return t(lang, "report-ads-one", { name: esc(best.name), joins: best.joins, clicks: best.clicks });
  return t(lang, "report-ads", {
    best: esc(best.name),
    bestJoins: best.joins,
    bestClicks: best.clicks,
    worst: esc(worst.name),
    worstJoins: worst.joins,
    worstClicks: worst.clicks,
  });
}
