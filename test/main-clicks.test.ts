import { afterEach, beforeEach, expect, test, setDefaultTimeout } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { loadConfig } from "../config";
import { createDeps } from "../app";
import { silentLogger } from "../core/log";
import { upsertTelegramUser } from "../core/accounts/users";
import { createLink } from "../core/links/links";
import { cleanEnv, spawnService, ROOT } from "./helpers/process";

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "linkbot-main-clicks-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

// spawns `bun main.ts` and loads it: more than bun's 5 s default on a busy machine
setDefaultTimeout(30_000);

test("bun main.ts records every redirect on its click writer thread and loses none on SIGTERM", async () => {
  const deps = createDeps(loadConfig({ DATA_DIR: dir, LOG_LEVEL: "error" }), { log: silentLogger });
  const link = await createLink(deps, await upsertTelegramUser(deps, { id: 1, username: "alice" }), { url: "https://ok.example/" });
  deps.handle.close();

  const svc = spawnService([join(ROOT, "main.ts")], cleanEnv({ DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1" }));
  const [, url] = await svc.waitForOutput(/Dashboard: (http:\/\/localhost:\d+)\//);
  const base = url!.replace("localhost", "127.0.0.1");
  const visits = await Promise.all(
    Array.from({ length: 300 }, (_, i) =>
      fetch(`${base}/${link.code}`, { redirect: "manual", headers: { "user-agent": `${CHROME} ${i}` } }),
    ),
  );
  expect(visits.map((r) => r.status)).toEqual(Array(300).fill(302));
  svc.proc.kill("SIGTERM"); // at once: the last batch is still queued or held by the writer thread
  expect(await svc.exit()).toBe(0);
  expect(svc.err).toBe("");

  const db = new Database(join(dir, "app.db"), { readonly: true });
  try {
    expect(db.query("select count(*) as n from clicks where link_id = ?").get(link.id)).toEqual({ n: 300 });
    expect(db.query("select total_clicks as n from links where id = ?").get(link.id)).toEqual({ n: 300 });
    expect(db.query("select sum(clicks) as n from link_stats_time where link_id = ? and span = 3600000").get(link.id)).toEqual({ n: 300 });
  } finally {
    db.close();
  }
});
