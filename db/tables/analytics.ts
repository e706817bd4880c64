import type { Kit } from "../kit";
import type { linkTables } from "./links";

export function analyticsTables(k: Kit, { links }: Pick<ReturnType<typeof linkTables>, "links">) {
  /**
   * Click roll-ups, maintained inside the transaction that records clicks (core/analytics/rollup.ts),
   * so analytics never scan a link's clicks and never go stale. `span` is the bucket length in ms:
   * an hour, a day or an 8-day block (UTC, aligned to the epoch); a range is answered from the
   * coarsest buckets that fit inside it, with raw clicks only for the ragged edges.
   *
   * Hour rows also keep their four 15-minute quarters (q0–q3, u0–u3): every IANA offset is a
   * multiple of 15 minutes, so timelines and heatmaps re-bucket exactly into half-hour and
   * 45-minute zones too.
   */
  const linkStatsTime = k.table(
    "link_stats_time",
    {
      linkId: k
        .int("link_id")
        .notNull()
        .references(() => links.id, { onDelete: "cascade" }),
      span: k.int("span").notNull(),
      /** bucket start, ms since the epoch, a multiple of span */
      bucket: k.int("bucket").notNull(),
      clicks: k.int("clicks").notNull().default(0),
      /** unique human clicks */
      uniques: k.int("uniques").notNull().default(0),
      bots: k.int("bots").notNull().default(0),
      q0: k.int("q0").notNull().default(0),
      q1: k.int("q1").notNull().default(0),
      q2: k.int("q2").notNull().default(0),
      q3: k.int("q3").notNull().default(0),
      u0: k.int("u0").notNull().default(0),
      u1: k.int("u1").notNull().default(0),
      u2: k.int("u2").notNull().default(0),
      u3: k.int("u3").notNull().default(0),
    },
    (t) => [k.primaryKey({ columns: [t.linkId, t.span, t.bucket] })],
  );

  /**
   * Per link, span, dimension and value ('' when unknown): click counts. `rule` and `variant` hold
   * the redirect rule's and the A/B variant's index as text (clicks no rule or variant sent are not
   * counted there); `uniques` (unique human clicks) is kept for `variant` only, the one dimension
   * whose unique clicks are shown.
   */
  const linkStatsDim = k.table(
    "link_stats_dim",
    {
      linkId: k
        .int("link_id")
        .notNull()
        .references(() => links.id, { onDelete: "cascade" }),
      span: k.int("span").notNull(),
      dim: k.text("dim", { enum: ["country", "device", "browser", "os", "bot", "rule", "variant", "referrer"] }).notNull(),
      bucket: k.int("bucket").notNull(),
      value: k.text("value").notNull(),
      clicks: k.int("clicks").notNull().default(0),
      uniques: k.int("uniques").notNull().default(0),
    },
    (t) => [k.primaryKey({ columns: [t.linkId, t.span, t.dim, t.bucket, t.value] })],
  );
  return { linkStatsTime, linkStatsDim };
}
