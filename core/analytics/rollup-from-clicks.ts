import { sql } from "drizzle-orm";
import { rowsOf, transaction, type AsyncDbOrTx } from "../../db/async";
import { HOUR, QUARTER, SPANS } from "./range";

/**
 * A link's roll-ups (link_stats_time, link_stats_dim) rebuilt from its stored clicks in one pass:
 * the clicks are grouped once, by quarter hour and by every value a roll-up counts (a temporary
 * table of a few rows per quarter), and each span's time and dimension rows are derived from those
 * groups. The rows equal what the click writer's roll-up listener (rollup.ts) adds for the same
 * clicks, on SQLite and on PostgreSQL (test/core/analytics/rollup-from-clicks.test.ts).
 *
 * For loading clicks in bulk (`bun run bench analytics --seed sql`), where running the listener per
 * batch would cost more than the load. The link's existing roll-up rows are replaced, in one
 * transaction; clicks written meanwhile by the click writer would be counted twice or not at all,
 * so only call it for a link nothing else is writing to.
 */
export async function rollupFromClicks(db: AsyncDbOrTx, linkId: number): Promise<{ groups: number }> {
  const pg = db.engine === "postgres";
  // clicked_at in ms since the epoch: PostgreSQL stores a timestamp, SQLite the ms themselves
  const ms = pg ? sql.raw("(extract(epoch from clicked_at) * 1000)::bigint") : sql.raw("clicked_at");
  const spansText = `(${SPANS.map((s, i) => (i ? `select ${s}` : `select ${s} as span`)).join(" union all ")}) s`;
  const spans = sql.raw(spansText);
  const bucket = sql.raw("g.q / s.span * s.span");
  return transaction(db, async (tx) => {
    await rowsOf(tx, sql`delete from link_stats_time where link_id = ${linkId}`);
    await rowsOf(tx, sql`delete from link_stats_dim where link_id = ${linkId}`);
    await rowsOf(tx, sql.raw("drop table if exists rollup_groups"));
    // the one pass over the clicks; is_bot and "unique human" as 0/1 so that sums count them
    await rowsOf(tx, sql`create temporary table rollup_groups as
      select ${ms} / ${sql.raw(String(QUARTER))} * ${sql.raw(String(QUARTER))} as q, country, device, browser, os,
        case when is_bot then 1 else 0 end as bot, bot_name, case when is_unique and not is_bot then 1 else 0 end as uq, rule, variant, count(*) as n
      from clicks where link_id = ${linkId}
      group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`);
    const quarters = [0, 1, 2, 3].map((k) => sql.raw(`case when s.span = ${HOUR} then sum(case when g.q % ${HOUR} = ${k * QUARTER} then g.n else 0 end) else 0 end`));
    const uniqueQuarters = [0, 1, 2, 3].map((k) => sql.raw(`case when s.span = ${HOUR} then sum(case when g.q % ${HOUR} = ${k * QUARTER} then g.n * g.uq else 0 end) else 0 end`));
    await rowsOf(tx, sql`insert into link_stats_time (link_id, span, bucket, clicks, uniques, bots, q0, q1, q2, q3, u0, u1, u2, u3)
      select ${linkId}, s.span, ${bucket}, sum(g.n), sum(g.n * g.uq), sum(g.n * g.bot), ${sql.join(quarters, sql`, `)}, ${sql.join(uniqueQuarters, sql`, `)}
      from rollup_groups g, ${spans} group by s.span, ${bucket}`);
    // each dimension: its value ('' when unknown), which clicks it counts, and whether it keeps uniques
    const dims: [string, string, string, boolean][] = [
      ["country", "coalesce(g.country, '')", "1 = 1", false],
      ["device", "coalesce(g.device, '')", "1 = 1", false],
      ["browser", "coalesce(g.browser, '')", "1 = 1", false],
      ["os", "coalesce(g.os, '')", "1 = 1", false],
      ["bot", "coalesce(g.bot_name, '')", "g.bot = 1", false],
      ["rule", "cast(g.rule as text)", "g.rule is not null", false],
      ["variant", "cast(g.variant as text)", "g.variant is not null", true],
    ];
    const parts = dims.map(([dim, value, where, uniques]) =>
      sql.raw(`select s.span as span, '${dim}' as dim, g.q / s.span * s.span as bucket, ${value} as value, sum(g.n) as clicks, ${uniques ? "sum(g.n * g.uq)" : "0"} as uniques
        from rollup_groups g, ${spansText} where ${where} group by 1, 3, 4`));
    await rowsOf(tx, sql`insert into link_stats_dim (link_id, span, dim, bucket, value, clicks, uniques)
      select ${linkId}, d.span, d.dim, d.bucket, d.value, d.clicks, d.uniques from (${sql.join(parts, sql` union all `)}) d`);
    const [row] = await rowsOf<{ n: unknown }>(tx, sql.raw("select count(*) as n from rollup_groups"));
    await rowsOf(tx, sql.raw("drop table rollup_groups"));
    return { groups: Number(row!.n) };
  });
}
