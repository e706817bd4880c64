import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { createLocalWindowCounters, type WindowCounters } from "../../../core/cluster/counters";
import { createPgWindowCounters } from "../../../core/cluster/counters-pg";
import { pgNodesForFile } from "../../helpers/pg-nodes";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

const { nodes } = pgNodesForFile(3);

const MIN = 60_000;
const t = (s: string) => new Date(`2026-05-01T10:${s}Z`);
let run = 0;

const kinds: [string, () => WindowCounters[]][] = [
  [
    "one node",
    () => {
      const c = createLocalWindowCounters();
      return [c, c, c];
    },
  ],
  ["PostgreSQL, three nodes", () => nodes.map((n) => createPgWindowCounters(n.db))],
];

for (const [kind, make] of kinds)
  describe(kind, () => {
    test("hits on any node count toward one window; the next window starts from zero", async () => {
      const [a, b, c] = make();
      const key = `ip:10.0.0.${++run}`;
      expect(await a!.hit(key, MIN, t("00:05"))).toEqual({ count: 1, resetAt: t("01:00") });
      expect((await b!.hit(key, MIN, t("00:30"))).count).toBe(2);
      expect((await c!.hit(key, MIN, t("00:59.999"))).count).toBe(3);
      expect(await a!.count(key, MIN, t("00:59"))).toBe(3);
      expect(await b!.hit(key, MIN, t("01:00"))).toEqual({ count: 1, resetAt: t("02:00") });
      expect(await c!.count(`${key}:other`, MIN, t("01:00"))).toBe(0);
    });

    test("a reset forgets the key's window; a sweep deletes ended windows only", async () => {
      const [a, b] = make();
      const key = `password:${++run}`;
      await a!.hit(key, MIN, t("00:01"));
      await a!.hit(key, MIN, t("00:02"));
      await b!.reset(key, MIN, t("00:03"));
      expect(await a!.count(key, MIN, t("00:04"))).toBe(0);
      await a!.hit(key, MIN, t("00:05"));
      await a!.hit(key, MIN, t("01:05"));
      expect(await b!.sweep(t("01:30"))).toBeGreaterThanOrEqual(1);
      expect(await a!.count(key, MIN, t("00:10"))).toBe(0);
      expect(await a!.count(key, MIN, t("01:10"))).toBe(1);
    });

    test("a window that is not a positive whole number of ms is refused", async () => {
      const [a] = make();
      await expect(a!.hit("k", 0, t("00:00"))).rejects.toThrow(RangeError);
      await expect(a!.hit("k", 1.5, t("00:00"))).rejects.toThrow(/positive whole number/);
    });
  });

test("concurrent hits from three nodes are counted exactly: a limit of 100 lets exactly 100 through", async () => {
  const counters = nodes.map((n) => createPgWindowCounters(n.db));
  const now = t("30:00");
  const results = await Promise.all(Array.from({ length: 300 }, (_, i) => counters[i % 3]!.hit("api:user:1", MIN, now)));
  const counts = results.map((r) => r.count).sort((x, y) => x - y);
  expect(counts).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  expect(results.filter((r) => r.count <= 100)).toHaveLength(100);
});
