import { expect, test } from "bun:test";
import { cleanEnv, run } from "./helpers/process";

test("bun run bench lists the benchmarks, and refuses an unknown one with the list", async () => {
  const list = await run(["run", "bench/index.ts"], cleanEnv());
  expect(list.code).toBe(0);
  expect(list.stdout).toContain("Benchmarks (bun run bench <name>):");
  expect(list.stdout).toMatch(/^ {2}api-overhead$/m);
  expect(list.stdout).not.toMatch(/^ {2}index$/m);
  const unknown = await run(["run", "bench/index.ts", "warp-speed"], cleanEnv());
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('Unknown benchmark "warp-speed"');
  expect(unknown.stdout).toContain("api-overhead");
});
