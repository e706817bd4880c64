import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../config";
import { clickJournalOf } from "../core/clicks/backlog";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("the generated JWT secret is kept in DATA_DIR and reused", () => {
  dir = mkdtempSync(join(tmpdir(), "linkbot-config-"));
  const first = loadConfig({ DATA_DIR: dir }).jwtSecret;
  expect(first.length).toBeGreaterThanOrEqual(32);
  expect(readFileSync(join(dir, "jwt-secret"), "utf8")).toBe(first);
  expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first);
});

test("an empty or short kept JWT secret stops the start instead of signing with a guessable key", () => {
  dir = mkdtempSync(join(tmpdir(), "linkbot-config-"));
  writeFileSync(join(dir, "jwt-secret"), "\n");
  expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/^JWT_SECRET: /);
  writeFileSync(join(dir, "jwt-secret"), "short");
  expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/^JWT_SECRET: /);
  expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: "y".repeat(32) })).not.toThrow();
});

test("NODE_NAME names this node (default: the host name); in cluster mode it gives each node its own click journal and mark", () => {
  dir = mkdtempSync(join(tmpdir(), "linkbot-node-"));
  const single = loadConfig({ DATA_DIR: dir });
  expect(single.nodeName).toBe(
    hostname()
      .replace(/[^A-Za-z0-9._-]/g, "-")
      .slice(0, 64),
  );
  expect(clickJournalOf(single)).toEqual({ dir: join(dir, "click-journal"), name: "local" });
  const node = loadConfig({ DATA_DIR: dir, NODE_NAME: "edge-2.fra", DATABASE_URL: "postgres://u:p@db.internal:5432/linkbot" });
  expect(clickJournalOf(node)).toEqual({ dir: join(dir, "click-journal", "edge-2.fra"), name: "node:edge-2.fra" });
  // JOURNAL_DIR puts the journal elsewhere (a local disk when DATA_DIR is shared), still one directory per node in cluster mode
  expect(clickJournalOf(loadConfig({ DATA_DIR: dir, JOURNAL_DIR: "/var/lib/linkbot/journal" }))).toEqual({
    dir: "/var/lib/linkbot/journal",
    name: "local",
  });
  expect(clickJournalOf({ ...node, journalDir: "/var/lib/linkbot/journal" })).toEqual({
    dir: "/var/lib/linkbot/journal/edge-2.fra",
    name: "node:edge-2.fra",
  });
  for (const bad of ["../x", ".hidden", "a/b", "x".repeat(65), "é"])
    expect(() => loadConfig({ DATA_DIR: dir, NODE_NAME: bad })).toThrow(/NODE_NAME: must be 1-64 letters/);
});
