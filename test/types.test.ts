import { expect, test, setDefaultTimeout } from "bun:test";
import { cleanEnv, run } from "./helpers/process";

// the compiler takes ~5 s here, more on a busy machine
setDefaultTimeout(60_000);

test("the whole project type-checks (tsc --noEmit with tsconfig.json)", async () => {
  const tsc = await run(["x", "tsc", "--noEmit", "-p", "tsconfig.json"], cleanEnv());
  expect(tsc.stdout + tsc.stderr).not.toContain("error TS");
  expect(tsc.code).toBe(0);
});
