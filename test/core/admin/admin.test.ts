/** The operator's counts and plan changes (core/admin) on SQLite and on a real PostgreSQL. */
import { expect, test } from "bun:test";
import { ManualClock } from "../../../core/clock";
import type { Deps } from "../../../core/deps";
import { serviceStats } from "../../../core/admin/stats";
import { resolveUserRef, setPlan } from "../../../core/admin/users";
import { onBothDatabases } from "../../helpers/async-engines";

onBothDatabases((open) => {
  test("counts accounts (not merged ones), links, clicks and the delivery queue by kind and state; plans are set by id or @username", async () => {
    const { db } = await open();
    const clock = new ManualClock("2026-03-01T09:30:00.000Z");
    const deps = { asyncDb: db, clock } as unknown as Deps;
    const [ada] = await db.insert(db.tables.users).values({ username: "Ada" }).returning();
    const [old] = await db.insert(db.tables.users).values({ username: "old", mergedIntoId: ada!.id }).returning();
    const [link] = await db
      .insert(db.tables.links)
      .values({ userId: ada!.id, code: "c1", url: "https://x.example", createdAt: clock.now(), updatedAt: clock.now() })
      .returning();
    await db.insert(db.tables.clicks).values([
      { linkId: link!.id, clickedAt: clock.now() },
      { linkId: link!.id, clickedAt: clock.now() },
    ]);
    const row = (id: string, kind: "bot" | "webhook", status: "pending" | "failed" | "done") => ({
      deliveryId: id,
      kind,
      topic: "t",
      target: "x",
      payload: {},
      status,
      nextAttemptAt: clock.now(),
      createdAt: clock.now(),
    });
    await db
      .insert(db.tables.outbox)
      .values([row("1", "bot", "pending"), row("2", "bot", "pending"), row("3", "webhook", "failed"), row("4", "webhook", "done")]);
    expect(await serviceStats(deps)).toEqual({
      users: 1,
      links: 1,
      clicks: 2,
      trackers: 0,
      secureFiles: 0,
      queues: { webhook: { pending: 0, sending: 0, failed: 1 }, bot: { pending: 2, sending: 0, failed: 0 } },
    });
    expect((await resolveUserRef(deps, "@ada")).id).toBe(ada!.id);
    expect((await resolveUserRef(deps, String(old!.id))).id).toBe(ada!.id); // a merged account's id resolves to the one it went into
    await expect(resolveUserRef(deps, "@old")).rejects.toThrow("User @old not found"); // usernames name live accounts only
    const pro = await setPlan(deps, ada!.id, "pro", 30);
    expect([pro.plan, pro.planExpiresAt?.toISOString()]).toEqual(["pro", "2026-03-31T09:30:00.000Z"]);
    await expect(setPlan(deps, 999, "pro")).rejects.toThrow("User not found");
    await expect(resolveUserRef(deps, "12345")).rejects.toThrow("User 12345 not found");
  });
});
