import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../config";

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
