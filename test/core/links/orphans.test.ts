/**
 * Orphan visits (visits to codes with no active link) on the async seam, one body on SQLite and on a
 * real PostgreSQL: who each visit is attributed to, the per-code view of a period, the pruning of
 * visits nobody owns.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ManualClock } from "../../../core/clock";
import type { Deps } from "../../../core/deps";
import { createLogger } from "../../../core/log";
import { createOrphanRecorder, pruneUnownedOrphanVisits } from "../../../core/links/orphans";
import { orphanVisitsOf } from "../../../core/analytics/orphans";
import { appEnginesForFile } from "../../helpers/async-engines";
import { eventually } from "../../helpers/eventually";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

const engines = appEnginesForFile();

for (const [engine, open] of engines)
  describe(engine, () => {
    test("each visit goes to the disabled link's owner, else the deleted code's, else the verified domain's, else nobody; viewed per code, pruned when nobody's", async () => {
      const { db } = await open();
      const clock = new ManualClock("2026-03-01T09:30:00.000Z");
      const logged: string[] = [];
      const deps = { asyncDb: db, clock, log: createLogger("error", (l) => logged.push(l)) } as unknown as Deps;
      const [ada] = await db.insert(db.tables.users).values({ username: "ada" }).returning();
      const [bob] = await db.insert(db.tables.users).values({ username: "bob" }).returning();
      const [off] = await db.insert(db.tables.links).values({ userId: ada!.id, code: "paused", url: "https://x.example", isActive: false, createdAt: clock.now(), updatedAt: clock.now() }).returning();
      await db.insert(db.tables.linkTombstones).values({ code: "gone", userId: bob!.id, deletedAt: clock.now() });
      await db.insert(db.tables.domains).values([
        { userId: bob!.id, hostname: "go.bob.example", verifiedAt: clock.now(), createdAt: clock.now() },
        { userId: ada!.id, hostname: "claimed.example", createdAt: clock.now() }, // not verified: owns nothing
      ]);
      const record = createOrphanRecorder(deps);
      record("paused", "s.example", off!);
      record("paused", "s.example", off!);
      record("gone", "s.example", null);
      record("anything", "go.bob.example", null);
      record("scan", "claimed.example", null);
      record("x".repeat(100), null, null);
      await eventually(async () => (await db.select().from(db.tables.orphanVisits)).length === 6, "the visits to be written in the background");
      expect(logged).toEqual([]);

      expect(await orphanVisitsOf(deps, ada!.id, { period: "30d" })).toEqual({ total: 2, items: [{ code: "paused", count: 2, lastAt: "2026-03-01T09:30:00.000Z" }] });
      expect((await orphanVisitsOf(deps, bob!.id, {})).items.map((i) => i.code).sort()).toEqual(["anything", "gone"]);
      const nobody = (await db.select().from(db.tables.orphanVisits)).filter((r) => r.userId === null).map((r) => r.code.length);
      expect(nobody.sort()).toEqual([4, 64]); // "scan", and a long code cut to 64 characters

      clock.advance(31 * 86_400_000);
      expect(await pruneUnownedOrphanVisits(deps)).toBe(2);
      expect((await db.select().from(db.tables.orphanVisits)).length).toBe(4);
    });
  });
