/**
 * A restart of the real service (`bun main.ts`, spawned) with work under way: bot messages and click
 * webhooks in flight and queued, clicks just taken. SIGTERM stops it cleanly; restarted on the same
 * DATA_DIR it finishes the work, and every click, webhook and message exists exactly once.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { createDb } from "../../db/client";
import { clicks, links, outbox, users } from "../../db/schema";
import { botMessageRow } from "../../core/delivery/outbox";
import { FakeBotApi, FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { WebhookReceiver } from "../helpers/webhook-receiver";
import { cleanEnv, spawnService } from "../helpers/process";
import { eventually } from "../helpers/eventually";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

/** A gate the fakes wait on: closed, calls hang (in flight); open, they answer at once. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

const VISITS = 12;
const MESSAGES = 12;

test("SIGTERM with deliveries in flight and queued, then a restart on the same DATA_DIR: everything exactly once", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "linkbot-restart-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const fake = new FakeBotApi().start();
  cleanups.push(() => fake.stop());
  const rx = new WebhookReceiver().start();
  cleanups.push(() => rx.stop());

  // an account with a link whose click webhook points at the receiver, and queued notifications
  const setup = createDb(join(dataDir, "app.db"));
  const now = new Date();
  const user = setup.db.insert(users).values({ username: "alice", msgrId: 42, createdAt: now }).returning().get();
  const link = setup.db
    .insert(links)
    .values({
      userId: user.id,
      code: "restart1",
      url: "https://ok.example/",
      webhookUrl: `${rx.url}/clicks`,
      webhookEnabled: true,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  for (let i = 0; i < MESSAGES; i++)
    setup.db
      .insert(outbox)
      .values(botMessageRow(now, { userId: user.id, topic: "notice", chatId: 42, params: { text: `notice ${i}` } }))
      .run();
  setup.close();

  // first run: the receiver and the Bot API hold every answer until the gate opens
  const held = gate();
  rx.respond = async () => (await held.opened, 200);
  fake.on(
    "sendMessage",
    async (p) => (await held.opened, { message_id: 1, date: 0, chat: { id: p.chat_id, type: "private" }, text: p.text }),
  );
  const env = cleanEnv({
    DATA_DIR: dataDir,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    BOT_TOKEN: FAKE_BOT_TOKEN,
    BOT_API_ROOT: fake.url,
    WEBHOOK_ALLOW_PRIVATE: "true",
  });
  const first = spawnService(["main.ts"], env);
  cleanups.push(() => first.proc.kill("SIGKILL"));
  const port = Number((await first.waitForOutput(/listening on [^:]+:(\d+)/))[1]);
  const visits = await Promise.all(
    Array.from({ length: VISITS }, (_, i) =>
      fetch(`http://127.0.0.1:${port}/restart1`, {
        redirect: "manual",
        headers: { "user-agent": `Mozilla/5.0 (X11; Linux x86_64) Firefox/${100 + i}.0` },
      }),
    ),
  );
  expect(visits.map((r) => r.status)).toEqual(Array(VISITS).fill(302));
  // deliveries are in flight (held) before the stop
  await eventually(() => fake.callsOf("sendMessage").length > 0 && rx.received.length > 0, "deliveries in flight", 10_000);
  first.proc.kill("SIGTERM");
  await first.waitForOutput(/SIGTERM: shutting down/);
  held.open(); // the attempts in flight finish, so the stop can record them
  expect(await first.exit()).toBe(0);

  const mid = createDb(join(dataDir, "app.db"));
  expect(mid.db.select().from(clicks).where(eq(clicks.linkId, link.id)).all()).toHaveLength(VISITS);
  const left = mid.db
    .select()
    .from(outbox)
    .all()
    .filter((r) => r.status !== "done");
  expect(left.length).toBeGreaterThan(0); // work was still queued when the service stopped
  expect(left.every((r) => r.status === "pending")).toBe(true);
  mid.close();

  // second run on the same DATA_DIR: the rest goes out
  const second = spawnService(["main.ts"], env);
  cleanups.push(() => second.proc.kill("SIGKILL"));
  await second.waitForOutput(/listening on/);
  const clickEvents = () => rx.received.filter((r) => r.headers["x-webhook-event"] === "click");
  await eventually(() => clickEvents().length >= VISITS && fake.callsOf("sendMessage").length >= MESSAGES, "all deliveries", 15_000);
  second.proc.kill("SIGTERM");
  expect(await second.exit()).toBe(0);

  // exactly once: one webhook per click (distinct delivery ids, none repeated), one message per notice
  const ids = clickEvents().map((r) => r.headers["x-webhook-id"]);
  expect(ids).toHaveLength(VISITS);
  expect(new Set(ids).size).toBe(VISITS);
  expect(
    fake
      .callsOf("sendMessage")
      .map((c) => c.params.text)
      .sort(),
  ).toEqual(Array.from({ length: MESSAGES }, (_, i) => `notice ${i}`).sort());
  const end = createDb(join(dataDir, "app.db"));
  const recorded = end.db.select().from(clicks).where(eq(clicks.linkId, link.id)).all();
  expect(recorded).toHaveLength(VISITS);
  expect(
    clickEvents()
      .map((r) => JSON.parse(r.body).click.clicked_at)
      .sort(),
  ).toEqual(recorded.map((c) => c.clickedAt.toISOString()).sort());
  expect(end.db.select().from(links).where(eq(links.id, link.id)).get()).toMatchObject({ totalClicks: VISITS, webhookFailures: 0 });
  expect(
    end.db
      .select()
      .from(outbox)
      .all()
      .map((r) => r.status),
  ).toEqual(Array(VISITS + MESSAGES).fill("done"));
  end.close();
}, 60_000);
