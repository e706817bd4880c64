import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { SQL } from "bun";
import { createLocalChangeBus, type ChangeBus } from "../../../core/cluster/change-bus";
import { createPgChangeBus } from "../../../core/cluster/change-bus-pg";
import { eventually } from "../../helpers/eventually";
import { startPostgres, type PgServer } from "../../helpers/postgres";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let pg: PgServer;
const pools: SQL[] = [];
beforeAll(async () => void (pg = await startPostgres()));
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  await pg?.stop();
});

/** A node: its own pool, as a separate process would have. */
function pgNode(): ChangeBus {
  const sql = new SQL(pg.url, { max: 2 });
  pools.push(sql);
  return createPgChangeBus(sql);
}

function collector() {
  const got: string[] = [];
  return { got, handlers: { onMessage: (p: string) => void got.push(p) } };
}

const kinds: [string, () => [ChangeBus, ChangeBus]][] = [
  [
    "one node",
    () => {
      const bus = createLocalChangeBus();
      return [bus, bus];
    },
  ],
  ["PostgreSQL, two nodes", () => [pgNode(), pgNode()]],
];

for (const [kind, make] of kinds)
  describe(kind, () => {
    test("a change published on one node reaches the subscribers of every node within a second", async () => {
      const [a, b] = make();
      const onA = collector();
      const onB = collector();
      const offA = await a.subscribe("links", onA.handlers);
      const offB = await b.subscribe("links", onB.handlers);
      const sent = performance.now();
      await a.publish("links", JSON.stringify({ code: "abc" }));
      await eventually(() => onB.got.length === 1 && onA.got.length === 1, "both subscribers to hear the change", 1000);
      expect(performance.now() - sent).toBeLessThan(1000);
      expect(onB.got).toEqual(['{"code":"abc"}']);
      await offB();
      await a.publish("links", "after");
      await eventually(() => onA.got.length === 2, "the remaining subscriber");
      expect(onB.got).toEqual(['{"code":"abc"}']);
      await offA();
    });

    test("topics are separate, and bad topics and oversized payloads are refused", async () => {
      const [a, b] = make();
      const links = collector();
      const secure = collector();
      const off = [await b.subscribe("links", links.handlers), await b.subscribe("secure_links", secure.handlers)];
      await a.publish("secure_links", "7");
      await eventually(() => secure.got.length === 1, "the secure-link subscriber");
      await a.publish("links", "8");
      await eventually(() => links.got.length === 1, "the link subscriber");
      expect([links.got, secure.got]).toEqual([["8"], ["7"]]);
      await expect(a.publish("Links; DROP", "x")).rejects.toThrow(/topic "Links; DROP"/);
      await expect(a.publish("links", "x".repeat(8000))).rejects.toThrow(/8000 bytes is over the 7999-byte limit/);
      for (const f of off) await f();
    });
  });

describe("PostgreSQL only", () => {
  test("a change published in a transaction arrives only when it commits", async () => {
    const [a, b] = [new SQL(pg.url, { max: 2 }), pgNode()];
    pools.push(a);
    const heard = collector();
    const off = await b.subscribe("links", heard.handlers);
    await a
      .begin(async (tx) => {
        await tx`SELECT pg_notify('linkbot_links', 'rolled back')`;
        throw new Error("abort");
      })
      .catch(() => {});
    await a.begin(async (tx) => void (await tx`SELECT pg_notify('linkbot_links', 'committed')`));
    await eventually(() => heard.got.length > 0, "the committed change");
    expect(heard.got).toEqual(["committed"]);
    await off();
  });

  test("a node whose listening connection dropped is told it may have missed changes, and hears again", async () => {
    const [a, b] = [pgNode(), pgNode()];
    const got: string[] = [];
    let gaps = 0;
    const off = await b.subscribe("gaps", { onMessage: (p) => void got.push(p), onGap: () => void gaps++ });
    const killed = await pg.admin("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query LIKE 'LISTEN%linkbot_gaps%'");
    expect(killed.trim()).toBe("1");
    await eventually(() => gaps === 1, "the gap to be reported", 10_000);
    await a.publish("gaps", "after reconnect");
    await eventually(() => got.length === 1, "the next change");
    expect(got).toEqual(["after reconnect"]);
    await off();
  });
});
