/**
 * Cluster mode for real: a PostgreSQL server, three `bun main.ts` nodes on it (one DATA_DIR shared,
 * a NODE_NAME each) behind HAProxy with the committed configuration, a fake Telegram Bot API the
 * nodes poll, and a webhook receiver. Requests are spread over the nodes (directly, to say which
 * node answers, and through HAProxy), and what a user would see is checked: a sign-in on one node
 * works on the others; a member removed from a team through one node is refused by every node at
 * once; click caps and share view limits hold exactly; a rate limit counts across
 * nodes; an edit reaches every node's cache within a second; click webhooks arrive once each, also
 * when the node that queued them is killed with SIGKILL; a file uploaded through one node is served
 * by another; bot polling and a job move to another node when their node is killed.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { startPostgres, type PgServer } from "../helpers/postgres";
import { cleanEnv, ROOT, spawnService } from "../helpers/process";
import { freePort } from "../helpers/free-port";
import { eventually } from "../helpers/eventually";
import { tempDir } from "../helpers/reaper";
import { startShippedHaproxy } from "../helpers/shipped-haproxy";
import { FakeBotApi, FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { WebhookReceiver } from "../helpers/webhook-receiver";
import { signInitData } from "../helpers/telegram-login";
import { pngBytes } from "../api/secure/helpers";
import { VISITORS, load, untilAnswered } from "../helpers/visitors";
import { parsePrometheus } from "../helpers/prometheus";

// a PostgreSQL server, three service processes and HAProxy: far more than bun's 5 s default
setDefaultTimeout(150_000);

type Node = ReturnType<typeof spawnService> & { name: string; port: number; url: string };
let pg: PgServer;
let dir: string;
let bot: FakeBotApi;
let hooks: WebhookReceiver;
let front: string;
const nodes: Node[] = [];
const others: { kill(signal?: number | NodeJS.Signals): void; exited: Promise<number> }[] = [];
const RATE_LIMIT = 40;

async function startNode(name: string, port: number): Promise<Node> {
  const env = cleanEnv({
    DATABASE_URL: pg.url,
    NODE_NAME: name,
    DATA_DIR: dir,
    PORT: String(port),
    HOST: "127.0.0.1",
    TRUST_PROXY: "true",
    BOT_TOKEN: FAKE_BOT_TOKEN,
    BOT_API_ROOT: bot.url,
    BOT_MODE: "polling",
    WEBHOOK_ALLOW_PRIVATE: "true",
    RATE_LIMIT_API: String(RATE_LIMIT),
    RATE_LIMIT_AUTH: "1000",
    LOG_LEVEL: "info",
  });
  const svc = spawnService([join(ROOT, "main.ts")], env);
  await svc.waitForOutput(/HTTP server listening/, 60_000);
  return Object.assign(svc, { name, port, url: `http://127.0.0.1:${port}` });
}

async function call(
  base: string,
  method: string,
  path: string,
  init: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: BodyInit | undefined;
  if (init.body instanceof FormData) body = init.body;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["content-type"] = "application/json";
  }
  const res = await fetch(`${base}${path}`, { method, headers, body, redirect: "manual" });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, text, json };
}

async function signIn(base: string, tgId: number) {
  const res = await call(base, "POST", "/api/auth/msgr", {
    body: { initData: signInitData({ id: tgId, username: `user${tgId}`, first_name: "U" }, new Date(), FAKE_BOT_TOKEN) },
  });
  expect(res.status).toBe(200);
  return res.json as { accessToken: string; user: { id: number } };
}

const live = () => nodes.filter((n) => n.proc.exitCode === null && !n.proc.killed);
const logsOf = (n: Node) => n.out + n.err;
/** The live node whose /metrics says it holds a lease matching `lease` (linkbot_lease_held 1). */
async function leaderOf(lease: RegExp): Promise<Node | undefined> {
  for (const n of live()) {
    const res = await fetch(`http://127.0.0.1:${n.port}/metrics`).catch(() => null);
    if (!res?.ok) continue;
    const held = parsePrometheus(await res.text()).some(
      (m) => m.name === "linkbot_lease_held" && lease.test(m.labels.lease ?? "") && m.value === 1,
    );
    if (held) return n;
  }
  return undefined;
}

beforeAll(async () => {
  pg = await startPostgres();
  dir = tempDir("linkbot-cluster-");
  bot = new FakeBotApi();
  bot.start();
  hooks = new WebhookReceiver();
  hooks.start();
  const ports = [await freePort(), await freePort(), await freePort()];
  // the first node migrates the empty database; the others start together and find it done
  nodes.push(await startNode("n1", ports[0]!));
  nodes.push(...(await Promise.all([startNode("n2", ports[1]!), startNode("n3", ports[2]!)])));
  const proxy = await startShippedHaproxy(dir, ports, (c) => c.replaceAll("default-server inter 2s", "default-server inter 200ms"));
  others.push(proxy.proc);
  front = proxy.url;
});

afterAll(async () => {
  for (const n of nodes) n.proc.kill("SIGKILL");
  for (const o of others) o.kill("SIGKILL");
  await Promise.all([...nodes.map((n) => n.proc.exited), ...others.map((o) => o.exited)]);
  await bot?.stop();
  hooks?.stop();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("three nodes on one PostgreSQL", () => {
  test("a sign-in on one node works on every node (one JWT secret, kept in the database)", async () => {
    const session = await signIn(nodes[0]!.url, 501);
    for (const n of nodes) {
      const me = await call(n.url, "GET", "/api/auth/me", { token: session.accessToken });
      expect([n.name, me.status, me.json?.user?.id]).toEqual([n.name, 200, session.user.id]);
    }
    // and through the balancer, whichever node it picks
    for (let i = 0; i < 6; i++)
      expect((await call(front, "GET", "/api/auth/me", { token: session.accessToken })).json?.user?.id).toBe(session.user.id);
  });

  test("a member removed through one node is refused at once by every node, their session and their token alike", async () => {
    const owner = await signIn(nodes[0]!.url, 511);
    const member = await signIn(nodes[1]!.url, 512);
    const ws = (await call(nodes[0]!.url, "POST", "/api/workspaces", { token: owner.accessToken, body: { name: "Agency" } })).json.id;
    const invite = await call(nodes[1]!.url, "POST", `/api/workspaces/${ws}/invites`, {
      token: owner.accessToken,
      body: { role: "editor" },
    });
    const joined = await call(nodes[2]!.url, "POST", "/api/workspaces/join", {
      token: member.accessToken,
      body: { token: invite.json.token },
    });
    expect(joined.status).toBe(200);
    const headers = { "x-workspace": String(ws) };
    const made = await call(nodes[2]!.url, "POST", "/api/tokens", {
      token: member.accessToken,
      headers,
      body: { name: "ci", scopes: ["read:links"] },
    });
    const apiToken = made.json.token as string;
    for (const n of nodes) {
      expect([n.name, (await call(n.url, "GET", "/api/links", { token: member.accessToken, headers })).status]).toEqual([n.name, 200]);
      expect([n.name, (await call(n.url, "GET", "/api/links", { token: apiToken })).status]).toEqual([n.name, 200]);
    }
    const removed = await call(nodes[0]!.url, "DELETE", `/api/workspaces/${ws}/members/${member.user.id}`, { token: owner.accessToken });
    expect(removed.json).toEqual({ success: true });
    // no node remembers the membership: the very next request on each is refused
    for (const n of nodes) {
      expect([n.name, (await call(n.url, "GET", "/api/links", { token: member.accessToken, headers })).status]).toEqual([n.name, 404]);
      const byToken = await call(n.url, "GET", "/api/links", { token: apiToken });
      expect([n.name, byToken.status, byToken.json?.error]).toEqual([n.name, 401, "token_revoked"]);
    }
  });

  test("a click cap holds exactly with visits spread over the nodes at once", async () => {
    const { accessToken: token } = await signIn(nodes[1]!.url, 502);
    const made = await call(nodes[1]!.url, "POST", "/api/links", { token, body: { url: "https://target.example/capped", max_clicks: 10 } });
    expect(made.status).toBe(201);
    const code = made.json.short_code ?? made.json.code;
    const visits = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(nodes[i % 3]!.url, "GET", `/${code}`, {
          headers: { "x-forwarded-for": `203.0.113.${i + 1}`, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0" },
        }),
      ),
    );
    const through = visits.filter((v) => v.status === 302 && v.headers.get("location")?.startsWith("https://target.example/capped"));
    expect(through).toHaveLength(10);
  });

  test("a share's view limit holds exactly with downloads spread over the nodes; a file uploaded through one node is served by the others", async () => {
    const { accessToken: token } = await signIn(nodes[0]!.url, 503);
    const folder = await call(nodes[0]!.url, "POST", "/api/secure/folders", { token, body: { name: "Docs" } });
    const file = await call(nodes[0]!.url, "POST", "/api/secure/files", {
      token,
      body: { folderId: folder.json.id, name: "pic", contentType: "file" },
    });
    const bytes = pngBytes(5000);
    const form = new FormData();
    form.append("file", new Blob([bytes], { type: "image/png" }), "photo.png");
    expect((await call(nodes[0]!.url, "POST", `/api/secure/files/${file.json.id}/upload`, { token, body: form })).status).toBe(200);
    const share = await call(nodes[0]!.url, "POST", "/api/secure/links", {
      token,
      body: { fileId: file.json.id, expiresInHours: 1, maxViews: 4 },
    });
    expect(share.status).toBe(201);
    const browser = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36" };
    const downloads = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        fetch(`${nodes[1 + (i % 2)]!.url}/api/secure/view/${share.json.code}/download`, {
          headers: { ...browser, "x-forwarded-for": `192.0.2.${i + 1}` },
        }),
      ),
    );
    const served = [];
    for (const d of downloads) if (d.status === 200) served.push(new Uint8Array(await d.arrayBuffer()));
    expect(served).toHaveLength(4);
    for (const body of served) expect(body).toEqual(bytes);
  });

  test("a rate limit counts every node's requests against one budget", async () => {
    // the shared window is a whole minute of the clock: start well inside one
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await Bun.sleep(60_000 - intoMinute + 200);
    const { accessToken: token } = await signIn(nodes[2]!.url, 504);
    const answers = [];
    for (let i = 0; i < RATE_LIMIT + 15; i++) answers.push((await call(nodes[i % 3]!.url, "GET", "/api/links", { token })).status);
    expect(answers.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
    expect(answers.filter((s) => s === 429)).toHaveLength(15);
  });

  test("an edit on one node is seen by every node's redirect within a second", async () => {
    const { accessToken: token } = await signIn(nodes[0]!.url, 505);
    const made = await call(nodes[0]!.url, "POST", "/api/links", { token, body: { url: "https://before.example/" } });
    const code = made.json.short_code ?? made.json.code;
    // every node has the link in its cache
    for (const n of nodes) expect((await call(n.url, "GET", `/${code}`)).headers.get("location")).toStartWith("https://before.example/");
    const edited = await call(nodes[1]!.url, "PATCH", `/api/links/${made.json.id}`, { token, body: { url: "https://after.example/" } });
    expect(edited.status).toBe(200);
    const at = Date.now();
    for (const n of nodes)
      await eventually(
        async () => (await call(n.url, "GET", `/${code}`)).headers.get("location")?.startsWith("https://after.example/"),
        `${n.name} to redirect to the new URL`,
        1000,
      );
    expect(Date.now() - at).toBeLessThan(1000);
  });

  test("click webhooks are delivered once each, also after the node that queued them is killed with SIGKILL", async () => {
    const { accessToken: token } = await signIn(nodes[0]!.url, 506);
    const made = await call(nodes[0]!.url, "POST", "/api/links", {
      token,
      body: { url: "https://hooked.example/", webhook_url: `${hooks.url}/clicks` },
    });
    expect(made.status).toBe(201);
    // the receiver turns slow, so the doomed node is mid-delivery when it dies
    hooks.respond = async () => (await Bun.sleep(1500), 200);
    const code = made.json.short_code ?? made.json.code;
    const before = hooks.received.length;
    const doomed = nodes[2]!;
    for (let i = 0; i < 12; i++)
      expect((await call(doomed.url, "GET", `/${code}`, { headers: { "x-forwarded-for": `198.51.100.${i + 1}` } })).status).toBe(302);
    // the clicks are committed and their deliveries queued (the writer thread's batch interval is 100 ms)
    await eventually(
      async () =>
        Number(await pg.admin(`select count(*) from outbox where topic = 'click_webhook' and ref_id = ${made.json.id}`, "linkbot_1")) ===
        12,
      "12 queued click webhooks",
      10_000,
    );
    await Bun.sleep(300);
    doomed.proc.kill("SIGKILL");
    await doomed.proc.exited;
    hooks.respond = 200;
    const deliveries = () => hooks.received.slice(before).filter((r) => r.headers["x-webhook-event"] === "click");
    const ids = () => new Set(deliveries().map((r) => r.headers["x-webhook-id"]));
    await eventually(() => ids().size === 12, "every click webhook delivered", 90_000);
    await Bun.sleep(2000);
    expect(ids().size).toBe(12);
    // each delivery id reached the receiver once, except those the killed node was sending at that moment
    const perId = new Map<string, number>();
    for (const r of deliveries()) {
      const id = r.headers["x-webhook-id"]!;
      perId.set(id, (perId.get(id) ?? 0) + 1);
    }
    expect([...perId.values()].every((n) => n <= 2)).toBe(true);
    // what the killed node was sending stays claimed until its claim lapses, then another node records it
    await eventually(
      async () =>
        Number(
          await pg.admin(
            `select count(*) from outbox where topic = 'click_webhook' and ref_id = ${made.json.id} and status <> 'done'`,
            "linkbot_1",
          ),
        ) === 0,
      "every click webhook recorded as delivered",
      100_000,
    );
  });

  test("a node killed with SIGKILL under load writes every click it answered once it starts again with its NODE_NAME", async () => {
    const { accessToken: token } = await signIn(nodes[0]!.url, 507);
    const made = await call(nodes[0]!.url, "POST", "/api/links", { token, body: { url: "https://durable.example/" } });
    const code = made.json.short_code ?? made.json.code;
    const victim = nodes[1]!;
    const visitors = load(victim.url, code);
    await untilAnswered(visitors.counts, 1500);
    victim.proc.kill("SIGKILL"); // visitors are waiting on answers; the last batches are in its journal only
    await victim.proc.exited;
    await visitors.stop();
    const clicksOf = async () => Number(await pg.admin(`select count(*) from clicks where link_id = ${made.json.id}`, "linkbot_1"));
    const beforeRestart = await clicksOf();
    // the same node again: its journal directory and mark are DATA_DIR/click-journal/n2 and node:n2
    const again = await startNode(victim.name, victim.port);
    nodes[1] = again;
    const { answered, lost } = visitors.counts;
    await eventually(async () => (await clicksOf()) >= answered, "the answered clicks to be written after the restart", 30_000);
    const stored = await clicksOf();
    expect(stored).toBeLessThanOrEqual(answered + Math.min(lost, VISITORS)); // at most the requests cut off in flight, once each
    expect(Number(await pg.admin(`select total_clicks from links where id = ${made.json.id}`, "linkbot_1"))).toBe(stored);
    expect(
      Number(
        await pg.admin(
          `select coalesce(sum(clicks), 0) from link_stats_time where link_id = ${made.json.id} and span = 3600000`,
          "linkbot_1",
        ),
      ),
    ).toBe(stored);
    if (beforeRestart < answered) expect(logsOf(again)).toContain("click journal:");
  });

  test("bot polling and a job move to another node when the node leading them is killed", async () => {
    const leader = await eventually(() => leaderOf(/^bot-polling$/), "a node to poll Telegram", 30_000);
    const jobLeader = await leaderOf(/^job-/);
    // the log says it too, once at start or as it happens
    expect(logsOf(leader)).toMatch(/node \S+ leads [^"]*\bbot-polling\b|lease bot-polling: this node leads/);
    leader.proc.kill("SIGKILL");
    await leader.proc.exited;
    const next = await eventually(() => leaderOf(/^bot-polling$/), "another node to take over polling", 60_000);
    expect(next.name).not.toBe(leader.name);
    expect(logsOf(next)).toContain("lease bot-polling: this node leads");
    // the new leader answers a user
    const sentBefore = bot.calls.filter((c) => c.method === "sendMessage").length;
    bot.pushMessage("/start", { id: 777, username: "failover", first_name: "F" });
    await eventually(
      () => bot.calls.filter((c) => c.method === "sendMessage").length > sentBefore,
      "the bot to answer through the new leader",
      30_000,
    );
    if (jobLeader === leader) await eventually(() => leaderOf(/^job-/), "another node to lead the jobs", 60_000);
    expect(await leaderOf(/^job-/)).toBeDefined();
  });
});
