import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertDataLayerAvailable, loadConfig } from "../config";
import { cleanEnv, run, ROOT } from "./helpers/process";

// this file spawns processes: more than bun's 5 s default on a busy machine
setDefaultTimeout(30_000);

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "linkbot-cluster-mode-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const URL_OK = "postgres://linkbot:s3cret-pass@db.internal:5432/linkbot";

test("DATABASE_URL is unset (SQLite) or a postgres:// or postgresql:// URL naming a host and a database", () => {
  expect(loadConfig({ DATA_DIR: dir }).databaseUrl).toBeNull();
  expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: "  " }).databaseUrl).toBeNull();
  expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: URL_OK }).databaseUrl).toBe(URL_OK);
  expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: "postgresql://u@10.0.0.5/app?sslmode=require" }).databaseUrl).toBe("postgresql://u@10.0.0.5/app?sslmode=require");
  expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: "postgres:///app?host=/var/run/postgresql" }).databaseUrl).toBe("postgres:///app?host=/var/run/postgresql");
  for (const [bad, why] of [
    ["mysql://u:secretpw@h/db", /^DATABASE_URL: expected postgres:\/\/.* got a mysql:\/\/ URL$/],
    ["sqlite:./data/app.db", /^DATABASE_URL: expected postgres:\/\/.*got a sqlite:\/\/ URL$/],
    ["localhost:5432/db", /^DATABASE_URL: /],
    ["not a url", /^DATABASE_URL: .*the value is not a URL$/],
    ["postgres://u:secretpw@db.internal:5432", /^DATABASE_URL: .*no database given$/],
    ["postgres:///app", /^DATABASE_URL: .*no host given$/],
  ] as const) {
    let message = "";
    try {
      loadConfig({ DATA_DIR: dir, DATABASE_URL: bad });
    } catch (e) {
      message = (e as Error).message;
    }
    expect({ bad, message }).toEqual({ bad, message: expect.stringMatching(why) });
    expect(message).not.toContain("secretpw");
  }
});

test("only a configuration without DATABASE_URL may run this build's data layer", () => {
  expect(() => assertDataLayerAvailable(loadConfig({ DATA_DIR: dir }))).not.toThrow();
  expect(() => assertDataLayerAvailable(loadConfig({ DATA_DIR: dir, DATABASE_URL: URL_OK }))).toThrow(/^DATABASE_URL: cluster mode's data layer \(PostgreSQL\) is not available in this build yet/);
});

test("bun main.ts with DATABASE_URL refuses to start with one line, and never falls back to SQLite", async () => {
  const r = await run([join(ROOT, "main.ts")], cleanEnv({ DATA_DIR: dir, PORT: "0", DATABASE_URL: URL_OK }));
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr.trimEnd().split("\n")).toEqual([
    "Configuration error: DATABASE_URL: cluster mode's data layer (PostgreSQL) is not available in this build yet; unset DATABASE_URL to run on SQLite",
  ]);
  expect(existsSync(join(dir, "app.db"))).toBe(false);
});

test("bun main.ts with a DATABASE_URL that is not PostgreSQL stops with one line naming the variable", async () => {
  const r = await run([join(ROOT, "main.ts")], cleanEnv({ DATA_DIR: dir, PORT: "0", DATABASE_URL: "mysql://u:secretpw@h/db" }));
  expect(r.code).toBe(1);
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("Configuration error: DATABASE_URL: expected postgres://");
  expect(r.stderr).not.toContain("secretpw");
});

test("a CLI command not yet on the async seam refuses DATABASE_URL too, naming those that run, instead of reporting on a SQLite file", async () => {
  const r = await run(["run", "cli.ts", "create-user", "--email", "a@b.example"], cleanEnv({ DATA_DIR: dir, DATABASE_URL: URL_OK }));
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr.trimEnd()).toBe("Configuration error: DATABASE_URL: cluster mode's data layer (PostgreSQL) is not available in this build yet; unset DATABASE_URL to run on SQLite (commands that run against PostgreSQL: set-plan, stats)");
  expect(existsSync(join(dir, "app.db"))).toBe(false);
});
