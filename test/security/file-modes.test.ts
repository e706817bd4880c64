/** DATA_DIR and everything in it are readable by the service's user only. */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers/app";
import { seed } from "../api/secure/helpers";

let t: TestApp | undefined;
afterEach(() => t?.close());

const mode = (path: string) => statSync(path).mode & 0o777;

/** Every path under `dir` with its mode. */
function modes(dir: string, prefix = ""): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    out[prefix + name] = mode(path);
    if (statSync(path).isDirectory()) Object.assign(out, modes(path, `${prefix}${name}/`));
  }
  return out;
}

describe("file modes", () => {
  test("a fresh DATA_DIR is 0700; the database with its -wal/-shm, the JWT secret and stored files are 0600", async () => {
    const parent = mkdtempSync(join(tmpdir(), "linkbot-modes-"));
    const dataDir = join(parent, "data");
    t = createTestApp({ env: { DATA_DIR: dataDir } });
    // a stored file (upload through the API) and a write, so the WAL holds data
    const { token, image } = await seed(t);
    expect((await t.request("GET", `/api/secure/files/${image.id}`, { token })).status).toBe(200);
    expect(mode(dataDir)).toBe(0o700);
    const all = modes(dataDir);
    expect(Object.keys(all)).toEqual(expect.arrayContaining(["app.db", "app.db-wal", "app.db-shm", "jwt-secret", "secure"]));
    expect(Object.keys(all).some((p) => /^secure\/[^/]+\.bin$/.test(p))).toBe(true);
    for (const [path, m] of Object.entries(all))
      expect([path, m]).toEqual([path, statSync(join(dataDir, path)).isDirectory() ? 0o700 : 0o600]);
    rmSync(parent, { recursive: true, force: true });
  });

  test("an existing DATA_DIR with world-readable files is tightened at start", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "linkbot-loose-"));
    chmodSync(dataDir, 0o755);
    mkdirSync(join(dataDir, "secure"), { mode: 0o755 });
    writeFileSync(join(dataDir, "secure", "old.bin"), "x", { mode: 0o644 });
    writeFileSync(join(dataDir, "app.db"), "", { mode: 0o666 });
    chmodSync(join(dataDir, "app.db"), 0o666);
    t = createTestApp({ env: { DATA_DIR: dataDir } });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, "secure"))).toBe(0o700);
    expect(mode(join(dataDir, "secure", "old.bin"))).toBe(0o600);
    for (const f of ["app.db", "app.db-wal", "app.db-shm"]) expect([f, mode(join(dataDir, f))]).toEqual([f, 0o600]);
  });
});
