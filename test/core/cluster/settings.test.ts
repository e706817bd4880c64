import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileSettings, type SharedSettings } from "../../../core/cluster/settings";
import { createPgSettings } from "../../../core/cluster/settings-pg";
import { pgNodesForFile } from "../../helpers/pg-nodes";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

const { nodes } = pgNodesForFile(3, 3);
let dir: string;
beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), "linkbot-settings-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let run = 0;
const kinds: [string, () => SharedSettings[]][] = [
  ["one node (files in DATA_DIR)", () => [createFileSettings(dir), createFileSettings(dir), createFileSettings(dir)]],
  ["PostgreSQL, three nodes", () => nodes.map((n) => createPgSettings(n.db))],
];

for (const [kind, make] of kinds)
  describe(kind, () => {
    test("the first writer's secret is what every node reads, also when they all start at once", async () => {
      const settings = make();
      const key = `jwt-secret-${++run}`;
      const made: string[] = [];
      const values = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          settings[i % 3]!.getOrCreate(key, () => {
            const v = `secret-${i}-${"x".repeat(40)}`;
            made.push(v);
            return v;
          }),
        ),
      );
      expect(new Set(values).size).toBe(1);
      expect(made).toContain(values[0]!);
      expect(await settings[2]!.getOrCreate(key, () => "never used")).toBe(values[0]!);
    });

    test("a key that is not a plain name is refused", async () => {
      const [a] = make();
      await expect(a!.getOrCreate("../etc/passwd", () => "x")).rejects.toThrow(/setting key/);
    });
  });

test("a setting file is readable by the service's user only, and no draft is left behind", async () => {
  await createFileSettings(dir).getOrCreate("private-one", () => "value");
  expect(statSync(join(dir, "private-one")).mode & 0o777).toBe(0o600);
  expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
});
