/**
 * One-node work under leases (core/cluster/lead.ts): periodic jobs and long-running work (bot polling,
 * the MTProto source) on one node at a time, moving to another node when the leader goes. Nodes are
 * contenders with their own PostgreSQL sessions on a real server.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createPgLeaderLease } from "../../../core/cluster/leader-pg";
import { createLocalLeaderLease } from "../../../core/cluster/leader";
import { leadingJob, whileLeading } from "../../../core/cluster/lead";
import type { Cluster } from "../../../core/cluster";
import { createLogger } from "../../../core/log";
import { eventually } from "../../helpers/eventually";
import { startPostgres, type PgServer } from "../../helpers/postgres";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let pg: PgServer;
beforeAll(async () => void (pg = await startPostgres()));
afterAll(() => pg?.stop());

const log = createLogger("error");
/** A node: its leases are PostgreSQL ones checked every `intervalMs`. */
const pgNode = (intervalMs = 100) => ({
  log,
  cluster: { lease: (name: string, o = {}) => createPgLeaderLease(pg.url, name, { ...o, intervalMs }) } as unknown as Cluster,
});
const localNode = () => ({ log, cluster: { lease: (name: string, o = {}) => createLocalLeaderLease(name, o) } as unknown as Cluster });

test("on one node a job always runs; stopped, it runs no more", async () => {
  let runs = 0;
  const job = leadingJob(localNode(), "cleanup", async () => void runs++);
  expect(await job.tick()).toBe(false); // not started: no lease yet
  await job.start();
  expect(await job.tick()).toBe(true);
  expect(await job.tick()).toBe(true);
  await job.stop();
  expect(await job.tick()).toBe(false);
  expect(runs).toBe(2);
});

test("of three nodes ticking the same job, only the lease holder runs it; when it stops, another takes over", async () => {
  const runs: string[] = [];
  const jobs = ["a", "b", "c"].map((n) => ({ n, job: leadingJob(pgNode(), "cleanup", async () => void runs.push(n)) }));
  try {
    for (const { job } of jobs) await job.start();
    for (let i = 0; i < 3; i++) for (const { job } of jobs) await job.tick();
    expect(runs).toHaveLength(3);
    const leader = runs[0]!;
    expect(runs).toEqual([leader, leader, leader]);
    await jobs.find((j) => j.n === leader)!.job.stop();
    await eventually(async () => {
      for (const { n, job } of jobs) if (n !== leader) await job.tick();
      return runs.length > 3;
    }, "another node to run the job");
    expect(runs.slice(3).every((n) => n !== leader)).toBe(true);
    expect(new Set(runs.slice(3)).size).toBe(1);
  } finally {
    for (const { job } of jobs) await job.stop();
  }
});

test("long-running work runs on one node at a time and moves when its node stops", async () => {
  const running = new Set<string>();
  const log: string[] = [];
  const work = (n: string) => ({
    start: async () => void (running.add(n), log.push(`start ${n}`)),
    stop: async () => void (running.delete(n), log.push(`stop ${n}`)),
  });
  const nodes = ["a", "b"].map((n) => ({ n, lead: whileLeading(pgNode(), "bot-polling", work(n)) }));
  try {
    for (const { lead } of nodes) await lead.start();
    expect(running.size).toBe(1);
    const first = [...running][0]!;
    await nodes.find((x) => x.n === first)!.lead.stop();
    await eventually(() => running.size === 1 && !running.has(first), "the other node to start the work");
    expect(log).toEqual([`start ${first}`, `stop ${first}`, `start ${first === "a" ? "b" : "a"}`]);
  } finally {
    for (const { lead } of nodes) await lead.stop();
  }
  expect(running.size).toBe(0);
});

test("a holder whose database session ended runs the job no more: the node that took the lease over runs it alone", async () => {
  const { LEASE_LOCK_SPACE } = await import("../../../core/cluster/leader-pg");
  const runs: string[] = [];
  // a checks its lease in the background every 15 s, b every 100 ms
  const a = leadingJob(pgNode(15_000), "cleanup", async () => void runs.push("a"));
  const b = leadingJob(pgNode(100), "cleanup", async () => void runs.push("b"));
  try {
    await a.start();
    await b.start();
    expect(await a.tick()).toBe(true);
    // the holder's session ends (a restart, a failover, an idle-session kill)
    await pg.admin(
      `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = ${LEASE_LOCK_SPACE} AND granted`,
    );
    await eventually(async () => ((await b.tick()) ? true : null), "b to take the lease over");
    runs.length = 0;
    await a.tick();
    await b.tick();
    expect(runs).toEqual(["b"]);
  } finally {
    await a.stop();
    await b.stop();
  }
});
