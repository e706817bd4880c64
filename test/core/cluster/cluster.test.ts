import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "../../../core/clock";
import { createLocalCluster, createPgCluster, type Cluster } from "../../../core/cluster";
import { eventually } from "../../helpers/eventually";
import { pgNodesForFile } from "../../helpers/pg-nodes";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

const cluster = pgNodesForFile(2, 3);
const clock = new ManualClock("2026-05-01T10:00:00Z");
let dir: string;
beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), "linkbot-cluster-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const kinds: [string, () => [Cluster, Cluster]][] = [
  [
    "one node",
    () => {
      const c = createLocalCluster({ dataDir: dir, clock });
      return [c, c];
    },
  ],
  [
    "PostgreSQL, two nodes",
    () => cluster.nodes.map((handle) => createPgCluster({ url: cluster.pg.url, handle, clock })) as [Cluster, Cluster],
  ],
];

for (const [kind, make] of kinds)
  describe(kind, () => {
    test("the pieces built together work together: lease, bus, counters, settings, updates", async () => {
      const [a, b] = make();
      const lease = a.lease("cron");
      await lease.start();
      expect(lease.held()).toBe(true);
      await lease.stop();
      const heard: string[] = [];
      const off = await b.bus.subscribe("links", { onMessage: (p) => void heard.push(p) });
      await a.bus.publish("links", "abc");
      await eventually(() => heard.length === 1, "the change");
      await off();
      await a.counters.hit("k", 60_000, clock.now());
      expect((await b.counters.hit("k", 60_000, clock.now())).count).toBe(2);
      const secret = await a.settings.getOrCreate("jwt-secret", () => "s".repeat(48));
      expect(await b.settings.getOrCreate("jwt-secret", () => "other")).toBe(secret);
      expect(await a.updates.take(1)).toBe("handle");
      expect(await b.updates.take(1)).toBe("busy");
    });
  });
