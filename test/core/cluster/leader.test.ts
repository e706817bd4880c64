import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createLocalLeaderLease, type LeaderLease } from "../../../core/cluster/leader";
import { createPgLeaderLease, LEASE_LOCK_SPACE } from "../../../core/cluster/leader-pg";
import { eventually } from "../../helpers/eventually";
import { startPostgres, type PgServer } from "../../helpers/postgres";
import { cleanEnv, spawnService } from "../../helpers/process";
import { join } from "node:path";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let pg: PgServer;
beforeAll(async () => void (pg = await startPostgres()));
afterAll(() => pg?.stop());

/** Kills the server session that holds `name`'s advisory lock, as when its node dies. */
async function killHolder(name: string) {
  const out = await pg.admin(
    `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = ${LEASE_LOCK_SPACE} AND objid = hashtext('${name}')::oid AND granted`,
  );
  expect(out.trim()).toBe("t");
}

function node(name: string, intervalMs?: number) {
  const changes: boolean[] = [];
  const lease = createPgLeaderLease(pg.url, name, { onChange: (h) => changes.push(h), intervalMs });
  return { lease, changes };
}

test("one node of several holds a lease; the others take over when its connection dies", async () => {
  const [a, b, c] = [node("cron"), node("cron"), node("cron")];
  try {
    expect(await a.lease.tick()).toBe(true);
    expect(await b.lease.tick()).toBe(false);
    expect(await c.lease.tick()).toBe(false);
    expect(await a.lease.tick()).toBe(true);
    await killHolder("cron");
    // exactly one of the others takes it; the old holder, reconnected, finds it taken
    await eventually(async () => (await b.lease.tick()) || (await c.lease.tick()), "another node to take the lease");
    expect([b.lease.held(), c.lease.held()].filter(Boolean)).toHaveLength(1);
    expect(await a.lease.tick()).toBe(false);
    expect(a.changes).toEqual([true, false]);
  } finally {
    await Promise.all([a, b, c].map((n) => n.lease.stop()));
  }
});

test("leases of different names are independent, and stopping gives a lease up", async () => {
  const [a, b] = [node("polling"), node("polling")];
  const other = node("mtproto");
  try {
    expect(await a.lease.tick()).toBe(true);
    expect(await other.lease.tick()).toBe(true);
    expect(await b.lease.tick()).toBe(false);
    await a.lease.stop();
    expect(a.changes).toEqual([true, false]);
    expect(await b.lease.tick()).toBe(true);
  } finally {
    await Promise.all([a.lease.stop(), b.lease.stop(), other.lease.stop()]);
  }
});

test("a holder killed with SIGKILL is replaced by a started standby without anyone asking", async () => {
  const holder = spawnService([join(import.meta.dir, "../../helpers/cluster-node-child.ts"), "lease", pg.url, "jobs"], cleanEnv());
  const standby = node("jobs", 200);
  try {
    await holder.waitForOutput(/^leading$/m);
    await standby.lease.start();
    expect(standby.lease.held()).toBe(false);
    holder.proc.kill("SIGKILL");
    await holder.exit();
    await eventually(() => standby.lease.held(), "the standby to lead", 10_000);
    expect(standby.changes).toEqual([true]);
  } finally {
    holder.proc.kill("SIGKILL");
    await standby.lease.stop();
  }
});

test("a node that cannot reach the database does not lead", async () => {
  const url = new URL(pg.url);
  url.password = "wrong";
  const lease: LeaderLease = createPgLeaderLease(url.toString(), "cron");
  expect(await lease.tick()).toBe(false);
  await lease.stop();
});

test("a lease without a change listener still knows whether it leads", async () => {
  const lone = createPgLeaderLease(pg.url, "no-listener");
  const local = createLocalLeaderLease("no-listener");
  try {
    expect(await lone.tick()).toBe(true);
    expect(lone.held()).toBe(true);
    await local.start();
    expect(local.held()).toBe(true);
  } finally {
    await lone.stop();
    await local.stop();
  }
});

test("alone, a node always leads", async () => {
  const changes: boolean[] = [];
  const lease = createLocalLeaderLease("cron", { onChange: (h) => changes.push(h) });
  await lease.start();
  expect(await lease.tick()).toBe(true);
  await lease.stop();
  expect(changes).toEqual([true, false]);
});
