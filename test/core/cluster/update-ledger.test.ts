import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ManualClock } from "../../../core/clock";
import { createLocalUpdateLedger, type UpdateLedger } from "../../../core/cluster/update-ledger";
import { createPgUpdateLedger } from "../../../core/cluster/update-ledger-pg";
import { pgNodesForFile } from "../../helpers/pg-nodes";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

const { nodes } = pgNodesForFile(3);

const clock = new ManualClock("2026-05-01T10:00:00Z");
let nextId = 1000;

const kinds: [string, () => UpdateLedger[]][] = [
  [
    "one node",
    () => {
      const l = createLocalUpdateLedger(clock, { leaseMs: 60_000 });
      return [l, l, l];
    },
  ],
  ["PostgreSQL, three nodes", () => nodes.map((n) => createPgUpdateLedger({ db: n.db, clock }, { leaseMs: 60_000 }))],
];

for (const [kind, make] of kinds)
  describe(kind, () => {
    test("an update sent again is handled once: busy while the first is handled, done after", async () => {
      const [a, b, c] = make();
      const id = ++nextId;
      expect(await a!.take(id)).toBe("handle");
      expect(await b!.take(id)).toBe("busy");
      await a!.done(id);
      expect(await c!.take(id)).toBe("done");
      clock.advance(3_600_000);
      expect(await b!.take(id)).toBe("done");
    });

    test("an update whose handler died is handled by the next delivery after the lease", async () => {
      const [a, b] = make();
      const id = ++nextId;
      expect(await a!.take(id)).toBe("handle");
      clock.advance(59_999);
      expect(await b!.take(id)).toBe("busy");
      clock.advance(1);
      expect(await b!.take(id)).toBe("handle");
      await b!.done(id);
      expect(await a!.take(id)).toBe("done");
    });

    test("a released update (its handling failed) is handled again at once", async () => {
      const [a, b] = make();
      const id = ++nextId;
      expect(await a!.take(id)).toBe("handle");
      await a!.release(id);
      expect(await b!.take(id)).toBe("handle");
    });

    test("the sweep forgets updates first seen before a time, and only those", async () => {
      const [a, b] = make();
      const old = ++nextId;
      await a!.take(old);
      await a!.done(old);
      clock.advance(25 * 3_600_000);
      const recent = ++nextId;
      await a!.take(recent);
      await a!.done(recent);
      expect(await b!.sweep(new Date(clock.now().getTime() - 24 * 3_600_000))).toBeGreaterThanOrEqual(1);
      expect(await b!.take(recent)).toBe("done");
      expect(await b!.take(old)).toBe("handle");
    });
  });

test("the same update reaching three nodes at once is handled by exactly one", async () => {
  const ledgers = nodes.map((n) => createPgUpdateLedger({ db: n.db, clock }));
  for (let round = 0; round < 20; round++) {
    const id = ++nextId;
    const turns = await Promise.all([0, 1, 2, 0, 1, 2].map((i) => ledgers[i]!.take(id)));
    expect(turns.filter((t) => t === "handle")).toHaveLength(1);
    expect(turns.filter((t) => t === "busy")).toHaveLength(5);
  }
});
