/**
 * Migrations an operator can see and time: `bun run cli migrate` applies and names each one; a node
 * started with MIGRATE=skip refuses a database older than its code with one line, and starts on a
 * migrated one without touching it; a node that migrates at start logs each migration it applied.
 * On SQLite and on PostgreSQL.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { cleanEnv, ROOT, run, spawnService } from "../helpers/process";
import { postgresForFile } from "../helpers/postgres";
import { shippedMigrations } from "../../db/migrations-state";

setDefaultTimeout(120_000);
const server = postgresForFile();
const tmp = () => server.tmp("linkbot-migrate-");

for (const engine of ["sqlite", "postgres"] as const) {
  test(`${engine}: cli migrate names what it applies; MIGRATE=skip refuses an old database and starts on a migrated one; a start logs each migration`, async () => {
    const names = shippedMigrations(engine).map((m) => m.tag);
    expect(names.length).toBeGreaterThan(3);
    const fresh = async () => ({
      DATA_DIR: tmp(),
      NODE_NAME: "mig",
      DRAIN_SECONDS: "0",
      ...(engine === "postgres" ? { DATABASE_URL: await server.pg.createDatabase() } : {}),
    });
    const env = await fresh();

    const refused = await run([join(ROOT, "main.ts")], cleanEnv({ ...env, PORT: "0", HOST: "127.0.0.1", MIGRATE: "skip" }));
    expect(refused.code).toBe(1);
    const said = refused.stderr.trim().split("\n");
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`lacks ${names.length} migration(s) this build ships (${names[0]}, `);
    expect(said[0]).toContain(`run "bun run cli migrate" first`);

    // MIGRATE=skip in the environment does not stop the command whose work it is
    const first = await run([join(ROOT, "cli.ts"), "migrate"], cleanEnv({ ...env, MIGRATE: "skip" }));
    expect([first.code, first.stderr]).toEqual([0, ""]);
    expect(first.stdout.trim().split("\n")).toEqual([
      ...names.map((n) => `applied ${n}`),
      `${names.length} migration(s) applied; the database holds all ${names.length}`,
    ]);
    const again = await run([join(ROOT, "cli.ts"), "migrate"], cleanEnv(env));
    expect(again.stdout.trim()).toBe(`nothing to apply: the database holds all ${names.length} migrations`);

    const node = spawnService([join(ROOT, "main.ts")], cleanEnv({ ...env, PORT: "0", HOST: "127.0.0.1", MIGRATE: "skip" }));
    const port = Number((await node.waitForOutput(/listening on [^:]+:(\d+)/, 60_000))[1]);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    node.proc.kill("SIGTERM");
    expect(await node.exit()).toBe(0);
    expect(node.out).not.toContain("migration");

    // the default: a start migrates and says so, one line per migration, in order
    const migrating = spawnService([join(ROOT, "main.ts")], cleanEnv({ ...(await fresh()), PORT: "0", HOST: "127.0.0.1" }));
    await migrating.waitForOutput(/listening on/, 60_000);
    migrating.proc.kill("SIGTERM");
    expect(await migrating.exit()).toBe(0);
    const logged = migrating.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { level: string; msg: string })
      .filter((l) => l.msg.startsWith("migration "));
    expect(logged).toEqual(names.map((n) => ({ level: "info", node: "mig", time: expect.any(String), msg: `migration ${n} applied` })));
  });
}
