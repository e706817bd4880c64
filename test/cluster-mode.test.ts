import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../config";
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
  expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: "postgresql://u@10.0.0.5/app?sslmode=require" }).databaseUrl).toBe(
    "postgresql://u@10.0.0.5/app?sslmode=require",
  );
  expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: "postgres:///app?host=/var/run/postgresql" }).databaseUrl).toBe(
    "postgres:///app?host=/var/run/postgresql",
  );
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

test("bun main.ts with a PostgreSQL it cannot reach stops with one line, and never falls back to SQLite", async () => {
  const r = await run(
    [join(ROOT, "main.ts")],
    cleanEnv({ DATA_DIR: dir, PORT: "0", DATABASE_URL: "postgres://linkbot:secretpw@127.0.0.1:9/nope" }),
  );
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("Could not open the database at DATABASE_URL: ");
  expect(r.stderr).not.toContain("secretpw");
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
