import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { loadConfig } from "../../config";
import { createDeps } from "../../app";
import { silentLogger } from "../../core/log";
import { upsertTelegramUser } from "../../core/accounts/users";
import { createLink } from "../../core/links/links";
import { createApiToken } from "../../core/tokens/api-tokens";
import { cleanEnv, run, spawnService, ROOT } from "../helpers/process";
import { load, untilAnswered } from "../helpers/visitors";

// two service starts, an outside sqlite3 and a backup under load
setDefaultTimeout(90_000);

// .ci/run installs Debian's sqlite3; a machine without it says so here instead of passing quietly
const SQLITE3 = Bun.which("sqlite3");
if (!SQLITE3)
  console.warn("outside-reader.test.ts: no sqlite3 binary on PATH: the outside-client test is skipped (apt-get install sqlite3)");

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "linkbot-outside-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const env = (dataDir: string) => cleanEnv({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" });

async function setup(dataDir: string) {
  const deps = createDeps(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error" }), { log: silentLogger });
  const user = await upsertTelegramUser(deps, { id: 1, username: "alice" });
  const link = await createLink(deps, user, { url: "https://ok.example/" });
  const { token } = await createApiToken(deps, user.id, { name: "test" });
  deps.handle.close();
  return { link, token };
}

async function start(dataDir: string) {
  const svc = spawnService([join(ROOT, "main.ts")], env(dataDir));
  const [, url] = await svc.waitForOutput(/Dashboard: (http:\/\/localhost:\d+)\//);
  return { svc, base: url!.replace("localhost", "127.0.0.1") };
}

/** The POSIX locks process `pid` holds on `path` (Linux's /proc/locks). */
function heldLocks(pid: number, path: string): string[] {
  const inode = statSync(path).ino;
  return readFileSync("/proc/locks", "utf8")
    .split("\n")
    .filter((line) => line.includes(` ${pid} `) && line.includes(`:${inode} `));
}

const linkUrls = (dataDir: string) => {
  const db = new Database(join(dataDir, "app.db"), { readonly: true });
  try {
    return (db.query("select url from links order by id").all() as { url: string }[]).map((r) => r.url);
  } finally {
    db.close();
  }
};

test.skipIf(!SQLITE3)(
  "an outside sqlite3 .backup under load, then SIGKILL: every write made after it survives; the CLI's online backup restores",
  async () => {
    const { link, token } = await setup(dir);
    const { svc, base } = await start(dir);
    const newLink = async (n: number) => {
      const res = await fetch(`${base}/api/links`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ url: `https://after.example/${n}` }),
      });
      expect(res.status).toBe(201);
    };
    const first = load(base, link.code);
    await untilAnswered(first.counts, 300);
    await first.stop();
    await Bun.sleep(300); // the writer thread has stored the batch: the service is idle
    // the service holds SQLite's shared lock on the database file (a POSIX lock of its process)
    expect(heldLocks(svc.proc.pid, join(dir, "app.db")).length).toBeGreaterThan(0);
    await newLink(1);

    // an outside client reads the live database
    const outside = Bun.spawnSync([SQLITE3!, join(dir, "app.db"), `.backup ${join(dir, "outside.db")}`], {
      stdout: "pipe",
      stderr: "pipe",
    });
    expect([outside.exitCode, outside.stderr.toString()]).toEqual([0, ""]);
    // the service still holds its locks, so that client left the live WAL alone
    expect(existsSync(join(dir, "app.db-wal"))).toBe(true);

    // and the CLI's online backup runs while clicks are being written
    const visitors = load(base, link.code);
    await untilAnswered(visitors.counts, 300);
    const backup = await run(["run", "cli.ts", "backup", join(dir, "online.db")], env(dir));
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain(`Backed up the database to ${join(dir, "online.db")}`);
    await newLink(2);
    await newLink(3);
    await visitors.stop();
    svc.proc.kill("SIGKILL");
    await svc.exit();

    expect(linkUrls(dir)).toEqual(["https://ok.example/", "https://after.example/1", "https://after.example/2", "https://after.example/3"]);

    // restore: a new DATA_DIR from the online backup starts and serves what was there when it was taken
    const restored = join(dir, "restored");
    mkdirSync(restored);
    copyFileSync(join(dir, "online.db"), join(restored, "app.db"));
    const again = await start(restored);
    try {
      const res = await fetch(`${again.base}/api/links`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { original_url: string }[]).map((l) => l.original_url).sort()).toEqual([
        "https://after.example/1",
        "https://ok.example/",
      ]);
      const visit = await fetch(`${again.base}/${link.code}`, { redirect: "manual" });
      expect([visit.status, visit.headers.get("location")]).toEqual([302, "https://ok.example/"]);
    } finally {
      again.svc.proc.kill("SIGTERM");
      await again.svc.exit();
    }
  },
);

test("the backup command refuses an existing file and a missing argument, and writes nothing", async () => {
  await setup(dir);
  const exists = join(dir, "taken.db");
  await Bun.write(exists, "mine");
  const taken = await run(["run", "cli.ts", "backup", exists], env(dir));
  expect(taken.code).toBe(1);
  expect(taken.stderr).toContain("exists already; name a new file");
  expect(await Bun.file(exists).text()).toBe("mine");
  const none = await run(["run", "cli.ts", "backup"], env(dir));
  expect(none.code).toBe(2);
  expect(none.stderr).toContain("Usage: bun run cli backup <file>");
});
