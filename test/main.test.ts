import { COMMANDS } from "../bot/commands";
import { afterEach, beforeEach, describe, expect, test, setDefaultTimeout } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeBotApi, FAKE_BOT_TOKEN } from "./helpers/fake-bot-api";
import { cleanEnv, run, spawnService, ROOT } from "./helpers/process";

// this file spawns processes or a browser: more than bun's 5 s default on a busy machine
setDefaultTimeout(30_000);

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "linkbot-main-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const MAIN = join(ROOT, "main.ts");

async function portIsFree(port: number) {
  try {
    Bun.serve({ port, hostname: "0.0.0.0", fetch: () => new Response() }).stop(true);
    return true;
  } catch {
    return false;
  }
}

// the no-configuration test needs the default port; another service on this machine may hold it
const defaultPortFree = await portIsFree(3000);

describe("bun main.ts", () => {
  test("starts, prints the dashboard URL, answers /healthz and exits 0 on SIGTERM", async () => {
    const svc = spawnService([MAIN], cleanEnv({ DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1" }));
    const [, url] = await svc.waitForOutput(/Dashboard: (http:\/\/localhost:\d+)\//);
    const health = await fetch(`${url!.replace("localhost", "127.0.0.1")}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
    expect(svc.out).toContain("BOT_TOKEN is not set");
    svc.proc.kill("SIGTERM");
    expect(await svc.exit()).toBe(0);
    expect(svc.out).toContain("SIGTERM: shutting down");
    expect(svc.out).toContain(`"level":"info","time":`);
    expect(svc.out).toMatch(/"msg":"stopped"/);
    expect(svc.err).toBe("");
  });

  test.skipIf(!defaultPortFree)("with no configuration at all it serves on port 3000 with ./data", async () => {
    const svc = spawnService([MAIN], cleanEnv(), dir);
    await svc.waitForOutput(/Dashboard: http:\/\/localhost:3000\//);
    expect((await fetch("http://127.0.0.1:3000/healthz")).status).toBe(200);
    svc.proc.kill("SIGINT");
    expect(await svc.exit()).toBe(0);
    expect(await Bun.file(join(dir, "data", "app.db")).exists()).toBe(true);
  });

  test("a bad value stops the start with one line naming the variable", async () => {
    for (const [name, value] of [
      ["PORT", "abc"],
      ["BOT_MODE", "push"],
      ["RATE_LIMIT_API", "-1"],
      ["BASE_URL", "ftp://x"],
    ] as const) {
      const r = await run([MAIN], cleanEnv({ DATA_DIR: dir, [name]: value }));
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      const lines = r.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith(`Configuration error: ${name}:`);
      expect(lines[0]).toContain(value);
    }
  });
});

test("a kept JWT secret too short to sign with stops the start with one line naming JWT_SECRET, before the database opens", async () => {
  writeFileSync(join(dir, "jwt-secret"), "short");
  const r = await run([MAIN], cleanEnv({ DATA_DIR: dir }));
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("Configuration error: JWT_SECRET:");
  expect(await Bun.file(join(dir, "app.db")).exists()).toBe(false);
});

test("a port already in use stops the start with a clear line and exit 1", async () => {
  const busy = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  try {
    const r = await run([MAIN], cleanEnv({ DATA_DIR: dir, PORT: String(busy.port), HOST: "127.0.0.1" }));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^Could not start: .*${busy.port}`, "m"));
  } finally {
    busy.stop(true);
  }
});

describe("bun main.ts with a bot", () => {
  let fake: FakeBotApi;
  beforeEach(() => (fake = new FakeBotApi().start()));
  afterEach(() => fake.stop());

  test("polling: sets the command list, answers /start, stops on SIGTERM", async () => {
    const svc = spawnService(
      [MAIN],
      cleanEnv({ DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1", BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url }),
    );
    await svc.waitForOutput(/bot @test_bot is polling/);
    const commands = (await fake.waitFor("setMyCommands")).params.commands.map((c: { command: string }) => c.command);
    expect(commands).toEqual(COMMANDS.map((c) => c.command));
    expect(commands).toEqual(expect.arrayContaining(["start", "help", "settings", "cancel", "track"]));
    fake.pushMessage("/start", { id: 555, first_name: "Ola" });
    const hello = await fake.waitFor("sendMessage", (c) => c.params.chat_id === 555);
    expect(hello.params.text).toStartWith("👋 Welcome, Ola!");
    svc.proc.kill("SIGTERM");
    expect(await svc.exit()).toBe(0);
    expect(svc.out).toContain(`"level":"info","time":`);
    expect(svc.out).toMatch(/"msg":"stopped"/);
  });

  test("a bot token Telegram refuses stops the start with exit 1", async () => {
    fake.failNext.set("getMe", { error_code: 401, description: "Unauthorized" });
    const r = await run(
      [MAIN],
      cleanEnv({ DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1", BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url }),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Could not start: .*getMe.*401: Unauthorized/m);
  });

  test("webhook: registers BASE_URL/telegram/webhook with a secret and only accepts updates carrying it", async () => {
    // find a free port first: the webhook URL must name the port before the server binds it
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = probe.port;
    probe.stop(true);
    const base = `http://127.0.0.1:${port}`;
    const svc = spawnService(
      [MAIN],
      cleanEnv({
        DATA_DIR: dir,
        PORT: String(port),
        HOST: "127.0.0.1",
        BASE_URL: base,
        BOT_TOKEN: FAKE_BOT_TOKEN,
        BOT_API_ROOT: fake.url,
        BOT_MODE: "webhook",
      }),
    );
    const set = await fake.waitFor("setWebhook");
    expect(set.params.url).toBe(`${base}/telegram/webhook`);
    expect(set.params.secret_token).toMatch(/^[A-Za-z0-9_-]{32,256}$/);
    // the whole list of update types, chat_member (withheld by Telegram unless asked for) included
    expect(set.params.allowed_updates).toEqual(
      expect.arrayContaining(["message", "callback_query", "my_chat_member", "chat_join_request", "chat_member"]),
    );
    await svc.waitForOutput(/receives updates at/);
    expect(fake.callsOf("getUpdates")).toHaveLength(0);

    const update = {
      update_id: 1,
      message: {
        message_id: 1,
        date: 1,
        chat: { id: 556, type: "private" },
        from: { id: 556, is_bot: false, first_name: "Web" },
        text: "/start",
        entities: [{ type: "bot_command", offset: 0, length: 6 }],
      },
    };
    const post = (secret?: string) =>
      fetch(`${base}/telegram/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(secret ? { "x-telegram-bot-api-secret-token": secret } : {}) },
        body: JSON.stringify(update),
      });
    expect((await post()).status).toBe(401);
    expect((await post("wrong")).status).toBe(401);
    expect(fake.callsOf("sendMessage")).toHaveLength(0);
    expect((await post(set.params.secret_token)).status).toBe(200);
    expect((await fake.waitFor("sendMessage", (c) => c.params.chat_id === 556)).params.text).toStartWith("👋 Welcome, Web!");

    svc.proc.kill("SIGTERM");
    expect(await svc.exit()).toBe(0);
  });
});
