/**
 * Whatever starts a PostgreSQL server, a service node or a temporary directory through the test
 * helpers leaves nothing behind, however the test process ends: at once, on an uncaught error, on
 * SIGINT, SIGTERM, or killed with SIGKILL. (`pg_ctl` runs the server outside the test process's
 * group, so without this a failed or interrupted run left it listening with its directory.)
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, ROOT, spawnService } from "../helpers/process";
import { eventually } from "../helpers/eventually";

setDefaultTimeout(120_000);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

for (const how of ["exit", "throw", "SIGINT", "SIGTERM", "SIGKILL"] as const)
  test(`a test process that ends by ${how} leaves no PostgreSQL server, node or directory behind`, async () => {
    const child = spawnService([join(ROOT, "test/helpers/cleanup-child.ts"), how.startsWith("SIG") ? "wait" : how], cleanEnv());
    const started = JSON.parse((await child.waitForOutput(/^\{.*\}$/m, 90_000))[0]) as {
      pgDir: string;
      pgPid: number;
      nodePid: number;
      dataDir: string;
    };
    expect([alive(started.pgPid), alive(started.nodePid), existsSync(started.pgDir), existsSync(join(started.dataDir, "marker"))]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    if (how !== "exit" && how !== "throw") child.proc.kill(how);
    else writeFileSync(join(started.dataDir, "go"), "");
    await child.exit();
    await eventually(
      () => !alive(started.pgPid) && !alive(started.nodePid) && !existsSync(started.pgDir) && !existsSync(started.dataDir),
      "everything to be cleaned up",
      30_000,
    );
  });
