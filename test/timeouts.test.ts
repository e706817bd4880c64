/**
 * A test that starts a process (Bun.spawn, or the helpers' spawnService and run) gives itself a
 * timeout. Bun 1.4 reads no timeout from bunfig.toml, so without one such a test has bun's 5 s
 * default, which a process start on a loaded CI machine can pass (the replay heap test did: 4.5 s
 * here, 5.09 s in CI).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./helpers/process";

/** A call that starts a process: Bun's own, or the helpers' (test/helpers/process.ts) around it. */
const SPAWNS = /\bBun\.spawn(Sync)?\(|\bspawnService\(|\brun\(\[/;

/**
 * Whether each test that starts a process has a timeout of its own: the file's default, a helper's
 * that sets one (`withBrowserApp`, `onBothDatabases`), or one given to that test.
 */
function timed(src: string): boolean {
  if (/\b(setDefaultTimeout|withBrowserApp|onBothDatabases)\(/.test(src)) return true;
  const tests = src.split(/\n\s*(?:test|it)(?:\.\w+)?\(/).slice(1);
  return tests.every((body) => !SPAWNS.test(body) || /\n\s*\},\s*[0-9_]+\s*\);/.test(body));
}

test("every test that starts a process gives itself a timeout", () => {
  const files = [...new Bun.Glob("test/**/*.test.ts").scanSync(ROOT)].filter((file) => SPAWNS.test(readFileSync(join(ROOT, file), "utf8")));
  expect(files.length).toBeGreaterThan(10);
  const untimed = files.filter((file) => !timed(readFileSync(join(ROOT, file), "utf8")));
  expect(untimed).toEqual([]);
});

test("the rule sees a file without a timeout", () => {
  const spawns = `import { test } from "bun:test";\ntest("a", async () => {\n  Bun.spawn(["bun"]);\n});\n`;
  expect(timed(spawns)).toBe(false);
  expect(timed(spawns.replace("\n});", "\n}, 30_000);"))).toBe(true);
  expect(timed(`setDefaultTimeout(60_000);\n${spawns}`)).toBe(true);
  // a test that starts none needs none; one that starts one through a helper does
  const other = `test("b", () => {\n  expect(1).toBe(1);\n});\n`;
  expect(timed(spawns.replace("\n});", "\n}, 30_000);") + other)).toBe(true);
  expect(timed(`${other}test("c", async () => {\n  await run([script], env);\n});\n`)).toBe(false);
});
