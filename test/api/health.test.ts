/**
 * /healthz answers 200 only while the node can reach its database: a load balancer takes a node that
 * answers 503 out of rotation (deploy/haproxy.cfg checks it every 2 s).
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createApi } from "../../api/app";
import { createAsyncPg } from "../../db/async-pg";
import type { Tables } from "../../db/async";
import { createPgDb } from "../../db/postgres";
import * as schemaPg from "../../db/schema-pg";
import { createTestApp } from "../helpers/app";
import { startPostgres, type PgServer } from "../helpers/postgres";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let pg: PgServer;
beforeAll(async () => void (pg = await startPostgres()));
afterAll(() => pg?.stop());

const get = async (app: ReturnType<typeof createApi>) => {
  const res = await app.handle(new Request("http://localhost/healthz"));
  return { status: res.status, json: await res.json() };
};

test("SQLite: 200 while the database answers; 503 with database_unreachable once its connection is gone", async () => {
  const t = createTestApp();
  try {
    expect(await get(t.app)).toEqual({ status: 200, json: { ok: true } });
    t.deps.handle.sqlite.close();
    expect(await get(t.app)).toEqual({ status: 503, json: { ok: false, error: "database_unreachable", message: "This node cannot reach its database" } });
    expect(t.logs.some((l) => l.includes("health check: the database did not answer"))).toBe(true);
  } finally {
    t.app.server?.stop(true);
  }
});

test("PostgreSQL: 200 while the server answers; 503 within the time limit once it is down", async () => {
  const t = createTestApp();
  const handle = await createPgDb(await pg.createDatabase(), { max: 2 });
  try {
    const app = createApi({ ...t.deps, asyncDb: createAsyncPg<Tables>(handle.db, schemaPg) });
    expect(await get(app)).toEqual({ status: 200, json: { ok: true } });
    await pg.stop();
    const started = Date.now();
    expect((await get(app)).status).toBe(503);
    expect(Date.now() - started).toBeLessThan(5000);
  } finally {
    await handle.close().catch(() => {});
    t.close();
  }
});
