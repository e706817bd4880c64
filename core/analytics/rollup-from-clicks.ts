import { sql } from "drizzle-orm";
import { rowsOf, transaction, type AsyncDbOrTx } from "../../db/async";
import { BLOCK, HOUR, QUARTER, SPANS } from "./range";
import { referrerHostText } from "./referrer";

/**
 * A link's roll-ups (link_stats_time, link_stats_dim) rebuilt from its stored clicks in one pass:
 * the clicks are grouped once, by quarter hour and by every value a roll-up counts (a temporary
 * table of at most a few hundred rows per quarter, filled an 8-day block at a time), and the hour rows are derived from those groups,
 * then the day and 8-day rows from the hour rows. The rows equal what the click writer's roll-up
 * listener (rollup.ts) adds for the same clicks, on SQLite and on PostgreSQL
 * (test/core/analytics/rollup-from-clicks.test.ts).
 *
 * For loading clicks in bulk (`bun run bench analytics --seed sql`), where running the listener per
 * batch would cost more than the load. The link's existing roll-up rows are replaced, in one
 * transaction; clicks written meanwhile by the click writer would be counted twice or not at all,
 * so only call it for a link nothing else is writing to.
 */
export async function rollupFromClicks(db: AsyncDbOrTx, linkId: number): Promise<{ groups: number }> {
  const pg = db.engine === "postgres";
  return transaction(db, async (tx) => {
    const raw = (text: string) => rowsOf(tx, sql.raw(text));
    await rowsOf(tx, sql`delete from link_stats_time where link_id = ${linkId}`);
    await rowsOf(tx, sql`delete from link_stats_dim where link_id = ${linkId}`);
    await raw("drop table if exists rollup_groups");
    await raw("drop table if exists rollup_hours");
    // the one pass over the clicks, an 8-day block at a time along the (link_id, clicked_at) index
    // (a block's groups are its own, since the quarter is part of every group's key; and each
    // block's grouping fits in memory, where 100M clicks at once would spill to disk); is_bot and
    // "unique human" as 0/1 so that sums count them
    const toMs = (e: string) => (pg ? `(extract(epoch from ${e}) * 1000)::bigint` : e);
    const at = (t: number) => (pg ? `timestamptz 'epoch' + ${t} * interval '1 millisecond'` : String(t));
    const [span] = await rowsOf<{ lo: unknown; hi: unknown }>(
      tx,
      sql`select ${sql.raw(toMs("min(clicked_at)"))} as lo, ${sql.raw(toMs("max(clicked_at)"))} as hi from clicks where link_id = ${linkId}`,
    );
    const select = `select ${toMs("clicked_at")} / ${QUARTER} * ${QUARTER} as q, country, device, browser, os,
        case when is_bot then 1 else 0 end as bot, bot_name, case when is_unique and not is_bot then 1 else 0 end as uq, rule, variant,
        ${referrerHostText(db.engine, "referer")} as ref, count(*) as n
      from clicks where link_id = ${linkId}`;
    const groupBy = "group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11";
    await raw(`create temporary table rollup_groups as ${select} and 1 = 0 ${groupBy}`);
    if (span?.lo !== null && span?.lo !== undefined)
      for (let from = Math.floor(Number(span.lo) / BLOCK) * BLOCK; from <= Number(span.hi); from += BLOCK)
        await raw(`insert into rollup_groups ${select} and clicked_at >= ${at(from)} and clicked_at < ${at(from + BLOCK)} ${groupBy}`);
    const quarter = (k: number, what: string) => `sum(case when q % ${HOUR} = ${k * QUARTER} then ${what} else 0 end)`;
    await raw(`insert into link_stats_time (link_id, span, bucket, clicks, uniques, bots, q0, q1, q2, q3, u0, u1, u2, u3)
      select ${linkId}, ${HOUR}, q / ${HOUR} * ${HOUR}, sum(n), sum(n * uq), sum(n * bot),
        ${[0, 1, 2, 3].map((k) => quarter(k, "n")).join(", ")}, ${[0, 1, 2, 3].map((k) => quarter(k, "n * uq")).join(", ")}
      from rollup_groups group by 3`);
    // the same groups by hour (the dimensions have no quarters), then each dimension's hour rows:
    // its value ('' when unknown), which clicks it counts, and whether it keeps uniques
    await raw(`create temporary table rollup_hours as
      select q / ${HOUR} * ${HOUR} as h, country, device, browser, os, bot, bot_name, uq, rule, variant, ref, sum(n) as n
      from rollup_groups group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11`);
    const dims: [string, string, string, boolean][] = [
      ["country", "coalesce(country, '')", "1 = 1", false],
      ["device", "coalesce(device, '')", "1 = 1", false],
      ["browser", "coalesce(browser, '')", "1 = 1", false],
      ["os", "coalesce(os, '')", "1 = 1", false],
      ["bot", "coalesce(bot_name, '')", "bot = 1", false],
      ["rule", "cast(rule as text)", "rule is not null", false],
      ["variant", "cast(variant as text)", "variant is not null", true],
      ["referrer", "ref", "1 = 1", false],
    ];
    for (const [dim, value, where, uniques] of dims)
      await raw(`insert into link_stats_dim (link_id, span, dim, bucket, value, clicks, uniques)
        select ${linkId}, ${HOUR}, '${dim}', h, ${value}, sum(n), ${uniques ? "sum(n * uq)" : "0"} from rollup_hours where ${where} group by 4, 5`);
    // days and 8-day blocks from the hour rows (their quarter columns stay 0, as the writer leaves them)
    for (const span of SPANS.filter((s) => s !== HOUR)) {
      await raw(`insert into link_stats_time (link_id, span, bucket, clicks, uniques, bots, q0, q1, q2, q3, u0, u1, u2, u3)
        select ${linkId}, ${span}, bucket / ${span} * ${span}, sum(clicks), sum(uniques), sum(bots), 0, 0, 0, 0, 0, 0, 0, 0
        from link_stats_time where link_id = ${linkId} and span = ${HOUR} group by 3`);
      await raw(`insert into link_stats_dim (link_id, span, dim, bucket, value, clicks, uniques)
        select ${linkId}, ${span}, dim, bucket / ${span} * ${span}, value, sum(clicks), sum(uniques)
        from link_stats_dim where link_id = ${linkId} and span = ${HOUR} group by 3, 4, 5`);
    }
    const [row] = await raw("select count(*) as n from rollup_groups");
    await raw("drop table rollup_groups");
    await raw("drop table rollup_hours");
    return { groups: Number((row as { n: unknown }).n) };
  });
}
