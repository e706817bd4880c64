/**
 * Webhook mode's handler (bot/runtime.ts): the secret header, and each update handled once through
 * the cluster's update ledger, also when Telegram sends it again or to another node.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Bot } from "grammy";
import type { Update } from "grammy/types";
import { webhookHandler, webhookSecret } from "../../bot/runtime";
import type { UpdateContext } from "../../bot/context";
import { ManualClock } from "../../core/clock";
import { createLocalUpdateLedger, type UpdateLedger } from "../../core/cluster/update-ledger";
import { createPgUpdateLedger } from "../../core/cluster/update-ledger-pg";
import type { Cluster } from "../../core/cluster";
import { createLogger } from "../../core/log";
import { loadConfig } from "../../config";
import { createPgDb, type PgDbHandle } from "../../db/postgres";
import { startPostgres, type PgServer } from "../helpers/postgres";

// starts a real PostgreSQL server: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let pg: PgServer;
beforeAll(async () => void (pg = await startPostgres()));
afterAll(() => pg?.stop());

const config = loadConfig({ DATA_DIR: "/tmp/unused", BOT_TOKEN: "123456:ABCdefGHIjklMNOpqrSTUvwxYZ012345", JWT_SECRET: "x".repeat(40) });
const SECRET = webhookSecret(config);
const logged: string[] = [];
const log = createLogger("error", (l) => logged.push(l));
const clock = new ManualClock();

/** A node's bot: records the updates it handled; text "slow" waits for `release`, "fail" throws. */
function node(updates: UpdateLedger) {
  const handled: number[] = [];
  let release = () => {};
  const slow = new Promise<void>((r) => (release = r));
  const bot = new Bot<UpdateContext>(config.botToken!, {
    botInfo: {
      id: 1,
      is_bot: true,
      first_name: "B",
      username: "b_bot",
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: true,
      can_connect_to_business: false,
      has_main_web_app: false,
    } as never,
  });
  bot.on("message:text", async (ctx) => {
    if (ctx.message.text === "fail") throw new Error("handler failed");
    if (ctx.message.text === "slow") await slow;
    handled.push(ctx.update.update_id);
  });
  const handler = webhookHandler(bot, { config, log, cluster: { updates } as unknown as Cluster });
  const post = async (update: Update, secret: string | null = SECRET) => {
    const set: { status?: number | string } = {};
    const request = new Request("http://node/telegram/webhook", {
      method: "POST",
      headers: secret ? { "x-telegram-bot-api-secret-token": secret } : {},
      body: JSON.stringify(update),
    });
    await handler({ request, set });
    return set.status ?? 200;
  };
  return { handled, post, release: () => release() };
}

const text = (id: number, t: string): Update =>
  ({
    update_id: id,
    message: {
      message_id: id,
      date: 1,
      chat: { id: 5, type: "private", first_name: "A" },
      from: { id: 5, is_bot: false, first_name: "A" },
      text: t,
    },
  }) as Update;

test("without the secret 401; an update is handled once, a second delivery of it answered 200 and skipped", async () => {
  const n = node(createLocalUpdateLedger(clock));
  expect(await n.post(text(1, "hi"), null)).toBe(401);
  expect(await n.post(text(1, "hi"), "wrong")).toBe(401);
  expect(await n.post(text(1, "hi"))).toBe(200);
  expect(await n.post(text(1, "hi"))).toBe(200);
  expect(await n.post(text(2, "hi"))).toBe(200);
  expect(n.handled).toEqual([1, 2]);
});

test("a delivery while the update is being handled is answered 503; a failed one is handled again at the next delivery", async () => {
  const n = node(createLocalUpdateLedger(clock));
  const first = n.post(text(7, "slow"));
  await Bun.sleep(10);
  expect(await n.post(text(7, "slow"))).toBe(503);
  n.release();
  expect(await first).toBe(200);
  expect(n.handled).toEqual([7]);
  expect(await n.post(text(8, "fail"))).toBe(500);
  expect(await n.post(text(8, "fail"))).toBe(500); // released each time: tried again, not skipped
  expect(logged.filter((l) => l.includes("update 8 failed; released for Telegram's next delivery"))).toHaveLength(2);
});

test("three nodes on one PostgreSQL: the same update sent to all of them at once is handled by exactly one", async () => {
  const url = await pg.createDatabase();
  const handles: PgDbHandle[] = [];
  for (let i = 0; i < 3; i++) handles.push(await createPgDb(url, { max: 3 }));
  try {
    const nodes = handles.map((h) => node(createPgUpdateLedger({ db: h.db, clock })));
    for (let id = 100; id < 120; id++) {
      const statuses = await Promise.all(nodes.map((n) => n.post(text(id, "hi"))));
      expect(statuses.filter((s) => s === 200).length + statuses.filter((s) => s === 503).length).toBe(3);
    }
    const all = nodes.flatMap((n) => n.handled).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 20 }, (_, i) => 100 + i));
  } finally {
    for (const h of handles) await h.close();
  }
});
