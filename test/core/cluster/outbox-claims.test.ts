import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { ManualClock } from "../../../core/clock";
import { createLocalOutboxClaims, type OutboxClaims } from "../../../core/cluster/outbox-claims";
import { createPgOutboxClaims } from "../../../core/cluster/outbox-claims-pg";
import { createDb } from "../../../db/client";
import { createPgDb, type PgDbHandle } from "../../../db/postgres";
import { outbox as pgOutbox } from "../../../db/schema-pg";
import { outbox } from "../../../db/schema";
import { startPostgres, type PgServer } from "../../helpers/postgres";
import { cleanEnv, spawnService } from "../../helpers/process";
import { join } from "node:path";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let pg: PgServer;
beforeAll(async () => void (pg = await startPostgres()));
afterAll(() => pg?.stop());

const clock = new ManualClock("2026-05-01T10:00:00Z");
const row = (i: number) => ({
  deliveryId: `d-${i}`,
  kind: "webhook" as const,
  topic: "click_webhook",
  target: `http://127.0.0.1:9/hook/${i}`,
  payload: { n: i },
  nextAttemptAt: clock.now(),
});

/** Three nodes, each with its own pool, on a fresh database holding `n` due rows. */
async function cluster(n: number): Promise<{ url: string; nodes: PgDbHandle[] }> {
  const url = await pg.createDatabase();
  const nodes = [await createPgDb(url, { max: 3 }), await createPgDb(url, { max: 3 }), await createPgDb(url, { max: 3 })];
  if (n) await nodes[0]!.db.insert(pgOutbox).values(Array.from({ length: n }, (_, i) => row(i)));
  return { url, nodes };
}

test("nodes claiming at the same time each get different rows, and together all of them", async () => {
  const { nodes } = await cluster(60);
  try {
    const claims = nodes.map((n) => createPgOutboxClaims({ db: n.db, clock }));
    const rounds = await Promise.all(Array.from({ length: 9 }, (_, i) => claims[i % 3]!.claim(10)));
    const ids = rounds.flat().map((c) => c.row.deliveryId);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    expect(rounds.flat().every((c) => c.row.status === "sending")).toBe(true);
  } finally {
    await Promise.all(nodes.map((n) => n.close()));
  }
});

test("a row claimed by a node that died before delivering is delivered once by another after the lease", async () => {
  const { nodes } = await cluster(1);
  const [a, b, c] = nodes.map((n) => createPgOutboxClaims({ db: n.db, clock }, { leaseMs: 30_000 })) as [OutboxClaims, OutboxClaims, OutboxClaims];
  const delivered: string[] = [];
  const deliver = async (claims: OutboxClaims) => {
    for (const claim of await claims.claim(10)) {
      delivered.push(claim.row.deliveryId);
      expect(await claims.settle(claim, { status: "done", attempts: claim.row.attempts + 1, completedAt: clock.now() })).toBe(true);
    }
  };
  try {
    const [lost] = await a.claim(10);
    expect(lost!.row.deliveryId).toBe("d-0");
    await nodes[0]!.close(); // node A dies holding the claim
    clock.advance(29_999);
    await deliver(b);
    expect(delivered).toEqual([]);
    clock.advance(1);
    await deliver(b);
    expect(delivered).toEqual(["d-0"]);
    clock.advance(120_000);
    await deliver(c);
    await deliver(b);
    expect(delivered).toEqual(["d-0"]);
    const [stored] = await nodes[2]!.db.select().from(pgOutbox).where(eq(pgOutbox.deliveryId, "d-0"));
    expect(stored).toMatchObject({ status: "done", attempts: 1 });
  } finally {
    await Promise.all(nodes.slice(1).map((n) => n.close()));
  }
});

test("rows claimed by a node process killed with SIGKILL are delivered by another node after the lease, once each", async () => {
  const { url, nodes } = await cluster(3);
  const child = spawnService([join(import.meta.dir, "../../helpers/cluster-node-child.ts"), "claim", url, clock.now().toISOString()], cleanEnv());
  try {
    await child.waitForOutput(/^claimed d-0,d-1,d-2$/m);
    child.proc.kill("SIGKILL");
    await child.exit();
    const b = createPgOutboxClaims({ db: nodes[1]!.db, clock });
    expect(await b.claim(10)).toEqual([]);
    clock.advance(30_000);
    const taken = await b.claim(10);
    expect(taken.map((c) => c.row.deliveryId)).toEqual(["d-0", "d-1", "d-2"]);
    for (const c of taken) expect(await b.settle(c, { status: "done", completedAt: clock.now() })).toBe(true);
    clock.advance(600_000);
    expect(await createPgOutboxClaims({ db: nodes[2]!.db, clock }).claim(10)).toEqual([]);
  } finally {
    child.proc.kill("SIGKILL");
    await Promise.all(nodes.map((n) => n.close()));
  }
});

test("a node whose claim lapsed and was taken over cannot overwrite the new holder's outcome", async () => {
  const { nodes } = await cluster(1);
  const [a, b] = nodes.map((n) => createPgOutboxClaims({ db: n.db, clock }, { leaseMs: 10_000 })) as [OutboxClaims, OutboxClaims];
  try {
    const [slow] = await a.claim(1);
    clock.advance(10_000);
    const [taken] = await b.claim(1);
    expect(taken!.row.id).toBe(slow!.row.id);
    expect(await b.settle(taken!, { status: "done", completedAt: clock.now() })).toBe(true);
    expect(await a.settle(slow!, { status: "pending", attempts: 1, lastError: "HTTP 500" })).toBe(false);
    const [stored] = await nodes[0]!.db.select().from(pgOutbox);
    expect(stored).toMatchObject({ status: "done", attempts: 0, lastError: null });
  } finally {
    await Promise.all(nodes.map((n) => n.close()));
  }
});

test("rows not yet due, and finished rows, are never claimed", async () => {
  const { nodes } = await cluster(0);
  try {
    await nodes[0]!.db.insert(pgOutbox).values([{ ...row(1), nextAttemptAt: new Date(clock.now().getTime() + 1000) }, { ...row(2), status: "done" }, { ...row(3), status: "failed" }]);
    const claims = createPgOutboxClaims({ db: nodes[1]!.db, clock });
    expect(await claims.claim(10)).toEqual([]);
    clock.advance(1000);
    expect((await claims.claim(10)).map((c) => c.row.deliveryId)).toEqual(["d-1"]);
  } finally {
    await Promise.all(nodes.map((n) => n.close()));
  }
});

test("alone on SQLite, a node claims through the delivery worker's query and settles its own claims", async () => {
  const handle = createDb(":memory:");
  try {
    handle.db.insert(outbox).values([row(1), row(2)]).run();
    const claims = createLocalOutboxClaims({ db: handle.db, clock });
    const got = await claims.claim(10);
    expect(got.map((c) => c.row.deliveryId)).toEqual(["d-1", "d-2"]);
    expect(await claims.claim(10)).toEqual([]);
    expect(await claims.settle(got[0]!, { status: "done", completedAt: clock.now() })).toBe(true);
    expect(await claims.settle(got[0]!, { status: "pending" })).toBe(false);
    expect(handle.db.select({ s: outbox.status }).from(outbox).all()).toEqual([{ s: "done" }, { s: "sending" }]);
  } finally {
    handle.close();
  }
});
