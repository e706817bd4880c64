/**
 * Rate limits and password attempts count across nodes: three nodes, each with its own connection
 * pool to one real PostgreSQL, share one budget (N nodes must not allow N times the limit).
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { SharedWindowLimiter } from "../../../api/shared/rate-limit";
import { AttemptLimiter } from "../../../core/links/password";
import { createPgWindowCounters } from "../../../core/cluster/counters-pg";
import { ManualClock } from "../../../core/clock";
import { createPgDb, type PgDbHandle } from "../../../db/postgres";
import { startPostgres, type PgServer } from "../../helpers/postgres";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let pg: PgServer;
const nodes: PgDbHandle[] = [];
beforeAll(async () => {
  pg = await startPostgres();
  const url = await pg.createDatabase();
  for (let i = 0; i < 3; i++) nodes.push(await createPgDb(url, { max: 4 }));
});
afterAll(async () => {
  for (const n of nodes) await n.close();
  await pg?.stop();
});

const clock = new ManualClock("2026-05-01T10:00:00Z");

test("an API limit of 8 per minute allows 8 requests in all, whichever nodes they reach", async () => {
  const limiters = nodes.map((n) => new SharedWindowLimiter(createPgWindowCounters(n.db), clock, 60_000, "api"));
  const verdicts = await Promise.all(Array.from({ length: 30 }, (_, i) => limiters[i % 3]!.hit("user:7", 8)));
  expect(verdicts.filter((v) => v.allowed)).toHaveLength(8);
  expect(
    verdicts
      .map((v) => v.remaining)
      .sort((a, b) => b - a)
      .slice(0, 8),
  ).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
  // another caller has a budget of its own; the next minute starts afresh
  expect((await limiters[0]!.hit("user:8", 8)).remaining).toBe(7);
  clock.advance(60_000);
  expect((await limiters[1]!.hit("user:7", 8)).allowed).toBe(true);
});

test("five password attempts in all, spread over the nodes; the sixth is locked out until the window ends", async () => {
  const attempts = nodes.map((n) => new AttemptLimiter(createPgWindowCounters(n.db), "link-password"));
  const now = new Date("2026-05-01T11:02:00Z");
  const results = await Promise.all(Array.from({ length: 9 }, (_, i) => attempts[i % 3]!.attempt("203.0.113.0|42", "42", now)));
  expect(results.filter((r) => r.retryAfterMs === 0)).toHaveLength(5);
  // the 15-minute window of 11:00–11:15 ends 13 minutes later
  expect(results.filter((r) => r.retryAfterMs > 0).map((r) => r.retryAfterMs)).toEqual([780_000, 780_000, 780_000, 780_000]);
  // a right password clears the key on every node
  await attempts[2]!.succeeded("203.0.113.0|42", now);
  expect((await attempts[0]!.attempt("203.0.113.0|42", "42", now)).retryAfterMs).toBe(0);
});
