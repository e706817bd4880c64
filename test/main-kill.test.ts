import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
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
import { VISITORS, load, untilAnswered } from "./helpers/visitors";

// spawns `bun main.ts` twice per test and loads it: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let dir: string;
let hooks: ReturnType<typeof Bun.serve>;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "linkbot-main-kill-"));
  hooks = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") }); // the link's webhook target
});
afterEach(() => {
  hooks.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

const env = () => cleanEnv({ DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1", WEBHOOK_ALLOW_PRIVATE: "true", LOG_LEVEL: "info" });

/** A link with a click webhook, in a fresh database under `dir`. */
async function setup() {
  const deps = createDeps(loadConfig({ DATA_DIR: dir, LOG_LEVEL: "error", WEBHOOK_ALLOW_PRIVATE: "true" }), { log: silentLogger });
  const link = await createLink(deps, await upsertTelegramUser(deps, { id: 1, username: "alice" }), {
    url: "https://ok.example/",
    webhook_url: `http://127.0.0.1:${hooks.port}/hook`,
  });
  deps.handle.close();
  return link;
}

async function startService() {
  const svc = spawnService([join(ROOT, "main.ts")], env());
  const [, url] = await svc.waitForOutput(/Dashboard: (http:\/\/localhost:\d+)\//);
  return { svc, base: url!.replace("localhost", "127.0.0.1") };
}

function storedOf(linkId: number) {
  const db = new Database(join(dir, "app.db"), { readonly: true });
  try {
    const n = (q: string) => (db.query(q).get(linkId) as { n: number }).n;
    return {
      clicks: n("select count(*) as n from clicks where link_id = ?"),
      total: n("select total_clicks as n from links where id = ?"),
      webhooks: n("select count(*) as n from outbox where topic = 'click_webhook' and ref_id = ?"),
      rolledUp: n("select coalesce(sum(clicks), 0) as n from link_stats_time where link_id = ? and span = 3600000"),
    };
  } finally {
    db.close();
  }
}

/** Restarts the service on the same DATA_DIR (which replays the journal), then stops it gracefully. */
async function restartAndStop() {
  const { svc } = await startService();
  svc.proc.kill("SIGTERM");
  expect(await svc.exit()).toBe(0);
  return svc;
}

test("SIGKILL of bun main.ts right after its visitors were answered: after a restart, exactly one click per 302, and a webhook queued for each", async () => {
  const link = await setup();
  const { svc, base } = await startService();
  const visitors = load(base, link.code);
  await untilAnswered(visitors.counts, 1500);
  await visitors.stop(); // every request answered; the last batches are still queued or in the writer thread
  svc.proc.kill("SIGKILL");
  await svc.exit();
  const beforeRestart = storedOf(link.id).clicks;
  expect(beforeRestart).toBeLessThanOrEqual(visitors.counts.answered);

  const again = await restartAndStop();
  const { answered, lost, other } = visitors.counts;
  expect({ lost, other }).toEqual({ lost: 0, other: 0 });
  expect(storedOf(link.id)).toEqual({ clicks: answered, total: answered, webhooks: answered, rolledUp: answered });
  if (beforeRestart < answered) expect(again.out).toContain(`click journal: ${answered - beforeRestart} clicks written again`);
});

test("SIGKILL of bun main.ts in the middle of the load: every answered click is stored once; at most the requests in flight add theirs", async () => {
  const link = await setup();
  const { svc, base } = await startService();
  const visitors = load(base, link.code);
  await untilAnswered(visitors.counts, 1500);
  svc.proc.kill("SIGKILL"); // visitors are waiting on answers right now
  await svc.exit();
  await visitors.stop();

  await restartAndStop();
  const { answered, lost } = visitors.counts;
  const stored = storedOf(link.id);
  // a request the service journaled but whose answer the kill cut off is stored too (its visitor may
  // have been sent on); each visitor had at most one request in flight
  expect(stored.clicks).toBeGreaterThanOrEqual(answered);
  expect(stored.clicks).toBeLessThanOrEqual(answered + Math.min(lost, VISITORS));
  expect(stored).toEqual({ clicks: stored.clicks, total: stored.clicks, webhooks: stored.clicks, rolledUp: stored.clicks });
});

test("SIGTERM of bun main.ts under load: a graceful stop writes every answered click once, and the restart finds nothing to replay", async () => {
  const link = await setup();
  const { svc, base } = await startService();
  const visitors = load(base, link.code);
  await untilAnswered(visitors.counts, 1500);
  await visitors.stop();
  svc.proc.kill("SIGTERM");
  expect(await svc.exit()).toBe(0);
  const { answered } = visitors.counts;
  expect(storedOf(link.id)).toEqual({ clicks: answered, total: answered, webhooks: answered, rolledUp: answered });

  const again = await restartAndStop();
  expect(again.out).not.toContain("click journal:");
  expect(storedOf(link.id).clicks).toBe(answered);
});
