/**
 * `bun run cli` against DATABASE_URL: the commands on the async seam (stats, set-plan) run on a real
 * PostgreSQL, applying the migrations first; an unreachable database is one error line.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asyncPg, createPgDb } from "../db/postgres";
import * as schemaPg from "../db/schema-pg";
import { cleanEnv, run } from "./helpers/process";
import { startPostgres, type PgServer } from "./helpers/postgres";

// starts a real PostgreSQL server and spawns processes
setDefaultTimeout(90_000);

let pg: PgServer;
beforeAll(async () => void (pg = await startPostgres()));
afterAll(() => pg?.stop());

const cli = (url: string, dir: string, ...args: string[]) =>
  run(["run", "cli.ts", ...args], cleanEnv({ DATA_DIR: dir, DATABASE_URL: url, LOG_LEVEL: "error" }));

test("every command runs against PostgreSQL (stats, set-plan, create-user, source); no SQLite file is made under DATA_DIR", async () => {
  const url = await pg.createDatabase();
  const dir = mkdtempSync(join(tmpdir(), "linkbot-cli-pg-"));
  // the first command applies the migrations itself
  const empty = await cli(url, dir, "stats", "--json");
  expect({ code: empty.code, stderr: empty.stderr }).toEqual({ code: 0, stderr: "" });
  expect(JSON.parse(empty.stdout)).toMatchObject({ users: 0, links: 0, clicks: 0 });

  const handle = await createPgDb(url, { max: 2 });
  try {
    const at = new Date("2026-03-01T09:30:00Z");
    const [ada] = await asyncPg(handle).insert(schemaPg.users).values({ username: "ada" }).returning();
    await asyncPg(handle)
      .insert(schemaPg.identities)
      .values({ userId: ada!.id, provider: "email", subject: "ada@example.com", createdAt: at });
    await asyncPg(handle)
      .insert(schemaPg.links)
      .values({ userId: ada!.id, code: "c1", url: "https://x.example", createdAt: at, updatedAt: at });
  } finally {
    await handle.close();
  }
  const stats = await cli(url, dir, "stats");
  expect(stats.code).toBe(0);
  expect(stats.stdout).toContain("users            1");
  expect(stats.stdout).toContain("links            1");

  const byEmail = await cli(url, dir, "set-plan", "ada@example.com", "pro", "--days", "30");
  expect({ code: byEmail.code, stderr: byEmail.stderr }).toEqual({ code: 0, stderr: "" });
  expect(byEmail.stdout).toMatch(/^user \d+ \(@ada\) is now on the pro plan until \d{4}-\d\d-\d\dT/);
  const byName = await cli(url, dir, "set-plan", "@ada", "free");
  expect(byName.stdout.trim()).toMatch(/is now on the free plan with no expiry$/);
  const unknown = await cli(url, dir, "set-plan", "@nobody", "pro");
  expect({ code: unknown.code, stderr: unknown.stderr.trim() }).toEqual({ code: 1, stderr: "Error: User @nobody not found" });
  const made = await cli(url, dir, "create-user", "--email", "bea@example.com");
  expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: "" });
  expect((await cli(url, dir, "create-user", "--email", "bea@example.com")).stderr.trim()).toMatch(
    /^Error: bea@example\.com already belongs to user \d+$/,
  );
  expect((await cli(url, dir, "stats")).stdout).toContain("users            2");
  const sources = await cli(url, dir, "source", "list");
  expect({ code: sources.code, stdout: sources.stdout.trim() }).toEqual({
    code: 0,
    stdout: "No sources yet: add the bot to a channel or group.",
  });
  expect(existsSync(join(dir, "app.db"))).toBe(false);
});

test("an unreachable PostgreSQL is one error line and exit code 1", async () => {
  const dir = mkdtempSync(join(tmpdir(), "linkbot-cli-pg-"));
  const r = await cli("postgres://linkbot:secretpw@127.0.0.1:9/nope", dir, "stats");
  expect(r.code).toBe(1);
  const lines = r.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("Error: could not open the PostgreSQL database of DATABASE_URL: ");
  expect(r.stderr).not.toContain("secretpw");
});
