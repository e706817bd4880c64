import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { loadConfig } from "../config";
import { createDeps } from "../app";
import { silentLogger } from "../core/log";
import { upsertTelegramUser } from "../core/accounts/users";
import { createLink } from "../core/links/links";
import { cleanEnv, ROOT } from "./helpers/process";
import { VISITORS, load, untilAnswered } from "./helpers/visitors";

// spawns `bun start` and loads it: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "linkbot-signals-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * `bun start` in a process group of its own, as a terminal or systemd runs it: `bun run` with the
 * service as its child, so a signal sent to the group reaches the service from the group and again
 * forwarded by `bun run`.
 */
function bunStart() {
  const proc = spawn("bun", ["start"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: cleanEnv({ DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" }),
  });
  let log = "";
  proc.stdout!.on("data", (d) => (log += d));
  proc.stderr!.on("data", (d) => (log += d));
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  return {
    get log() {
      return log;
    },
    exited,
    /** a signal to the whole process group */
    signalGroup: (signal: NodeJS.Signals) => process.kill(-proc.pid!, signal),
    async url(): Promise<string> {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const m = /Dashboard: http:\/\/localhost:(\d+)\//.exec(log);
        if (m) return `http://127.0.0.1:${m[1]}`;
        if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`bun start did not come up:\n${log}`);
        await Bun.sleep(20);
      }
    },
  };
}

for (const [first, second] of [
  ["SIGTERM", "SIGINT"],
  ["SIGINT", "SIGINT"],
] as const)
  test(`${first} then ${second} to the process group of bun start under load: one graceful shutdown, every answered click stored`, async () => {
    const deps = createDeps(loadConfig({ DATA_DIR: dir, LOG_LEVEL: "error" }), { log: silentLogger });
    const link = await createLink(deps, await upsertTelegramUser(deps, { id: 1, username: "alice" }), { url: "https://ok.example/" });
    deps.handle.close();

    const svc = bunStart();
    const visitors = load(await svc.url(), link.code);
    await untilAnswered(visitors.counts, 1000);
    svc.signalGroup(first);
    svc.signalGroup(second);
    expect(await svc.exited).toBe(0);
    await visitors.stop();

    const { answered, lost } = visitors.counts;
    const db = new Database(join(dir, "app.db"), { readonly: true });
    const stored = (db.query("select count(*) as n from clicks where link_id = ?").get(link.id) as { n: number }).n;
    db.close();
    // every answered click is in the database at once (no replay needed); a request the shutdown
    // cut off after its click was taken may add its own (at most one per visitor)
    expect(stored).toBeGreaterThanOrEqual(answered);
    expect(stored).toBeLessThanOrEqual(answered + Math.min(lost, VISITORS));
    expect(svc.log.match(/SIG(TERM|INT): shutting down/g)).toHaveLength(1);
    // two different signals are both delivered (two of one kind may merge while pending)
    if (first !== second) expect(svc.log).toContain("already shutting down");
    expect(svc.log).toMatch(/\bstopped\b/);
    expect(svc.log).not.toContain("without waiting");
  });
