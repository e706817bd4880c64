/**
 * The pages of a link's clicks (newest first, ties by id) equal slices of the full order, on both
 * databases: many clicks share an instant, so pages start and end inside runs of equal instants,
 * and some instants differ by less than a millisecond on PostgreSQL (which keeps microseconds).
 */
import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { onBothDatabases } from "../../helpers/async-engines";
import { rowsOf } from "../../../db/async";
import { linkClicks } from "../../../core/analytics/stats";
import type { Deps } from "../../../core/deps";

const T0 = Date.parse("2026-03-01T09:30:00.000Z");

onBothDatabases((open, engine) => {
  test("every page is the slice of the full order, runs of equal instants across page edges", async () => {
    const { db } = await open();
    const [user] = await db.insert(db.tables.users).values({ username: "pager" }).returning();
    const [link] = await db
      .insert(db.tables.links)
      .values({ userId: user!.id, code: "page1", url: "https://example.com", createdAt: new Date(T0) })
      .returning();
    // 157 clicks over 40 instants (runs of 1 to 7 equal instants), inserted out of order
    let seed = 3;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const values = Array.from({ length: 157 }, () => ({
      linkId: link!.id,
      clickedAt: new Date(T0 + Math.floor(rnd() * 40) * 1000),
      isBot: false,
      isUnique: true,
    }));
    await db.insert(db.tables.clicks).values(values);
    if (engine === "postgres")
      // instants finer than a millisecond: two clicks 0.3 ms and 0.6 ms after one instant, in its millisecond
      await rowsOf(
        db,
        sql`update clicks set clicked_at = clicked_at + interval '300 microseconds' * (id % 3) where id in (select id from clicks order by id limit 9)`,
      );
    // the order as the database sorts the stored instants (microseconds included on PostgreSQL)
    const order = (await rowsOf<{ id: unknown }>(db, sql`select id from clicks order by clicked_at desc, id desc`)).map((r) =>
      Number(r.id),
    );
    expect(order).toHaveLength(157);
    const deps = { asyncDb: db } as unknown as Deps;
    for (const limit of [1, 3, 7, 50, 100])
      for (let page = 1; (page - 1) * limit <= order.length; page++) {
        const got = await linkClicks(deps, user!.id, link!.id, { page, limit });
        expect(got.data.map((c) => c.id)).toEqual(order.slice((page - 1) * limit, page * limit));
      }
  });
});
