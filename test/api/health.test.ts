/**
 * /readyz (and /healthz, its older name) answers 200 only while the node can do its work: the
 * database answers, it holds every migration this build ships, and the click journal can be
 * written; a load balancer takes a node that answers 503 out of rotation (deploy/haproxy.cfg checks
 * it every 2 s). /livez answers 200 while the process serves, whatever the database does.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createApi } from "../../api/app";
import { createAsyncPg } from "../../db/async-pg";
import type { Tables } from "../../db/async";
import { createPgDb } from "../../db/postgres";
import * as schemaPg from "../../db/schema-pg";
import { createTestApp } from "../helpers/app";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startPostgres, type PgServer } from "../helpers/postgres";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let pg: PgServer;
beforeAll(async () => void (pg = await startPostgres()));
afterAll(() => pg?.stop());

const get = async (app: ReturnType<typeof createApi>, path = "/healthz") => {
  const res = await app.handle(new Request(`http://localhost${path}`));
  return { status: res.status, json: await res.json() };
};

test("SQLite: 200 while the database answers; 503 with database_unreachable once its connection is gone", async () => {
  const t = createTestApp();
  try {
    expect(await get(t.app)).toEqual({ status: 200, json: { ok: true } });
    t.deps.handle.sqlite.close();
    expect(await get(t.app)).toEqual({
      status: 503,
      json: { ok: false, error: "database_unreachable", message: "This node cannot reach its database" },
    });
    expect(await get(t.app, "/readyz")).toEqual(await get(t.app));
    expect(await get(t.app, "/livez")).toEqual({ status: 200, json: { ok: true } });
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
    expect([(await get(app, "/readyz")).status, (await get(app, "/livez")).status]).toEqual([503, 200]);
  } finally {
    await handle.close().catch(() => {});
    t.close();
  }
});

test("not ready while the database lacks a migration this build ships, or the click journal cannot be written", async () => {
  const t = createTestApp();
  try {
    expect(await get(t.app, "/readyz")).toEqual({ status: 200, json: { ok: true } });
    // the newest migration's record gone, as after restoring an older backup under a newer build
    t.deps.handle.sqlite.run("delete from __drizzle_migrations where created_at = (select max(created_at) from __drizzle_migrations)");
    expect(await get(t.app, "/readyz")).toEqual({
      status: 503,
      json: { ok: false, error: "migrations_pending", message: "The database lacks migrations this build needs" },
    });
    t.close();
  } finally {
    t.app.server?.stop(true);
  }
  const u = createTestApp();
  try {
    rmSync(join(u.dataDir, "click-journal"), { recursive: true, force: true });
    writeFileSync(join(u.dataDir, "click-journal"), "not a directory");
    expect(await get(u.app, "/readyz")).toEqual({
      status: 503,
      json: { ok: false, error: "journal_unwritable", message: "This node cannot write its click journal" },
    });
    expect(await get(u.app, "/livez")).toEqual({ status: 200, json: { ok: true } });
  } finally {
    u.close();
  }
});
