/**
 * Orphan visits (visits to codes with no active link) on the async seam, one body on SQLite and on a
 * real PostgreSQL: who each visit is attributed to, the per-code view of a period, the pruning of
 * visits nobody owns.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ManualClock } from "../../../core/clock";
import type { Deps } from "../../../core/deps";
import { createLogger } from "../../../core/log";
import { createOrphanRecorder, pruneOrphanVisits } from "../../../core/redirect/orphans";
import { orphanVisitsOf } from "../../../core/analytics/orphans";
import { appEnginesForFile } from "../../helpers/async-engines";
import { eventually } from "../../helpers/eventually";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

const engines = appEnginesForFile();

for (const [engine, open] of engines)
  describe(engine, () => {
    test("each visit goes to the disabled link's owner, else the deleted code's, else the verified domain's, else is not kept; viewed per code; old days pruned", async () => {
      const { db } = await open();
      const clock = new ManualClock("2026-03-01T09:30:00.000Z");
      const logged: string[] = [];
      const deps = { asyncDb: db, clock, log: createLogger("error", (l) => logged.push(l)) } as unknown as Deps;
      const [ada] = await db.insert(db.tables.users).values({ username: "ada" }).returning();
      const [bob] = await db.insert(db.tables.users).values({ username: "bob" }).returning();
      const [off] = await db
        .insert(db.tables.links)
        .values({
          userId: ada!.id,
          code: "paused",
          url: "https://x.example",
          isActive: false,
          createdAt: clock.now(),
          updatedAt: clock.now(),
        })
        .returning();
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
      record("x".repeat(100), "go.bob.example", null);
      const rows = () => db.select().from(db.tables.orphanVisitDays);
      await eventually(async () => (await rows()).reduce((n, r) => n + r.visits, 0) === 5, "the visits to be written in the background");
      expect(logged).toEqual([]);

      expect(await orphanVisitsOf(deps, ada!.id, { period: "30d" })).toEqual({
        total: 2,
        items: [{ code: "paused", count: 2, lastAt: "2026-03-01T09:30:00.000Z" }],
      });
      expect((await orphanVisitsOf(deps, bob!.id, {})).items.map((i) => i.code).sort()).toEqual(["anything", "gone", "x".repeat(64)]);
      // "scan" on a claimed but unverified domain is nobody's: not kept; a long code is cut to 64 characters
      expect((await rows()).map((r) => [r.userId, r.code.length, r.host, r.visits]).sort()).toEqual(
        [
          [ada!.id, 6, "s.example", 2],
          [bob!.id, 4, "s.example", 1],
          [bob!.id, 64, "go.bob.example", 1],
          [bob!.id, 8, "go.bob.example", 1],
        ].sort(),
      );

      clock.advance(401 * 86_400_000);
      expect(await pruneOrphanVisits(deps)).toBe(4);
      expect(await rows()).toEqual([]);
    });
  });
