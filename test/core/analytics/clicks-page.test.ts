/**
 * The pages of a link's clicks (newest first, ties by id) equal slices of the full order, on both
 * databases: many clicks share an instant, so pages start and end inside runs of equal instants
 * (runs shorter and longer than the 100 instants the skip reads back), and some instants differ by
 * less than a millisecond on PostgreSQL (which keeps microseconds).
 */
import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { onBothDatabases } from "../../helpers/async-engines";
import { rowsOf } from "../../../db/async";
import { linkClicks } from "../../../core/analytics/clicks-list";
import type { Deps } from "../../../core/deps";

const T0 = Date.parse("2026-03-01T09:30:00.000Z");

onBothDatabases((open, engine) => {
  test("every page is the slice of the full order, runs of equal instants across page edges", async () => {
    const { db } = await open();
    const [user] = await db.insert(db.tables.users).values({ username: "pager" }).returning();
    let seed = 3;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    // link 1: 157 clicks over 40 instants (runs of 1 to 7); link 2: 330 clicks over 3 instants (runs over 100)
    for (const [code, n, instants] of [
      ["page1", 157, 40],
      ["page2", 330, 3],
    ] as const) {
      const [link] = await db
        .insert(db.tables.links)
        .values({ userId: user!.id, code, url: "https://example.com", createdAt: new Date(T0) })
        .returning();
      // inserted out of order
      const values = Array.from({ length: n }, () => ({
        linkId: link!.id,
        clickedAt: new Date(T0 + Math.floor(rnd() * instants) * 1000),
        isBot: false,
        isUnique: true,
      }));
      await db.insert(db.tables.clicks).values(values);
      if (engine === "postgres")
        // instants finer than a millisecond: clicks 0.3 ms and 0.6 ms after an instant, in its millisecond
        await rowsOf(
          db,
          sql`update clicks set clicked_at = clicked_at + interval '300 microseconds' * (id % 3) where id in (select id from clicks where link_id = ${link!.id} order by id limit 60)`,
        );
      // the order as the database sorts the stored instants (microseconds included on PostgreSQL)
      const order = (
        await rowsOf<{ id: unknown }>(db, sql`select id from clicks where link_id = ${link!.id} order by clicked_at desc, id desc`)
      ).map((r) => Number(r.id));
      expect(order).toHaveLength(n);
      const deps = { asyncDb: db } as unknown as Deps;
      for (const limit of [1, 3, 7, 50, 100])
        for (let page = 1; (page - 1) * limit <= order.length; page++) {
          const got = await linkClicks(deps, user!.id, link!.id, { page, limit });
          expect(got.data.map((c) => c.id)).toEqual(order.slice((page - 1) * limit, page * limit));
        }
    }
  });
});
