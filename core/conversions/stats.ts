import { and, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Deps } from "../deps";
import type { AsyncDbOrTx } from "../../db/async";

/** Conversion figures: how many, their value by currency, and how many of each event. */
export interface ConversionStats {
  count: number;
  value: Record<string, number>;
  by_event: Record<string, number>;
}

/** What the figures are of: one link, one invite or one placement (the owner's). */
export type ConversionScope = { linkId: number } | { inviteId: number } | { placementId: number };
/** A period, `from` inclusive and `to` exclusive; either side open when absent. */
export interface ConversionPeriod {
  from?: Date;
  to?: Date;
}

export const emptyConversionStats = (): ConversionStats => ({ count: 0, value: {}, by_event: {} });

type Column = "linkId" | "inviteId" | "placementId";
const columnOf = (s: ConversionScope): [Column, number] =>
  "linkId" in s ? ["linkId", s.linkId] : "inviteId" in s ? ["inviteId", s.inviteId] : ["placementId", s.placementId];

/**
 * The figures of many links, invites or placements at once (one grouped query per 1,000 ids), by id;
 * ids without conversions are absent. Only `ownerId`'s conversions count.
 */
async function conversionStatsOf(
  db: AsyncDbOrTx,
  ownerId: number,
  column: Column,
  ids: number[],
  period: ConversionPeriod = {},
): Promise<Map<number, ConversionStats>> {
  const out = new Map<number, ConversionStats>();
  const { conversions } = db.tables;
  const col = conversions[column];
  for (let i = 0; i < ids.length; i += 1000) {
    const where: (SQL | undefined)[] = [
      eq(conversions.userId, ownerId),
      inArray(col, ids.slice(i, i + 1000)),
      period.from ? gte(conversions.occurredAt, period.from) : undefined,
      period.to ? lt(conversions.occurredAt, period.to) : undefined,
    ];
    const rows = await db
      .select({
        id: col,
        event: conversions.event,
        currency: conversions.currency,
        count: sql<number>`count(*)`.mapWith(Number),
        // summed as a real on SQLite (an integer sum overflows at 2^63: nine conversions of the largest
        // value), as numeric on PostgreSQL; either way read into a JavaScript number
        micros: sql<number | null>`sum(${conversions.valueMicros} * 1.0)`.mapWith((v) => (v === null ? null : Number(v))),
      })
      .from(conversions)
      .where(and(...where))
      .groupBy(col, conversions.event, conversions.currency);
    for (const r of rows) {
      const id = Number(r.id);
      const s = out.get(id) ?? out.set(id, emptyConversionStats()).get(id)!;
      s.count += r.count;
      s.by_event[r.event] = (s.by_event[r.event] ?? 0) + r.count;
      if (r.currency !== null && r.micros !== null) s.value[r.currency] = round((s.value[r.currency] ?? 0) + r.micros / 1e6);
    }
  }
  return out;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** The conversion figures of one of `ownerId`'s links, invites or placements, optionally in a period. */
export async function conversionStats(
  deps: Pick<Deps, "asyncDb">,
  ownerId: number,
  scope: ConversionScope,
  period: ConversionPeriod = {},
): Promise<ConversionStats> {
  const [column, id] = columnOf(scope);
  return (await conversionStatsOf(deps.asyncDb, ownerId, column, [id], period)).get(id) ?? emptyConversionStats();
}

/** Conversions per A/B variant of a link: the variant of the click each conversion came through, by index. */
export async function conversionsByVariant(
  deps: Pick<Deps, "asyncDb">,
  ownerId: number,
  linkId: number,
  period: ConversionPeriod = {},
): Promise<Map<number, number>> {
  const { conversions, clicks } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .select({ variant: clicks.variant, count: sql<number>`count(*)`.mapWith(Number) })
    .from(conversions)
    .innerJoin(clicks, and(eq(clicks.clickId, conversions.clickId), eq(clicks.linkId, conversions.linkId)))
    .where(
      and(
        eq(conversions.userId, ownerId),
        eq(conversions.linkId, linkId),
        period.from ? gte(conversions.occurredAt, period.from) : undefined,
        period.to ? lt(conversions.occurredAt, period.to) : undefined,
      ),
    )
    .groupBy(clicks.variant);
  return new Map(rows.filter((r) => r.variant !== null).map((r) => [Number(r.variant), r.count]));
}

/** Conversions per unique click, to four decimals; null without unique clicks. */
export const conversionRate = (count: number, uniqueClicks: number): number | null =>
  uniqueClicks > 0 ? Math.round((count / uniqueClicks) * 10000) / 10000 : null;
