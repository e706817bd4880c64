import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../helpers/app";
import { WebhookReceiver } from "../helpers/webhook-receiver";
import { ingestPost } from "../../core/tracking/ingest";
import { upsertSource } from "../../core/tracking/sources";
import { recordBotMembership } from "../../core/channels/ownership";
import { chatOwnersTelegram } from "../helpers/chat-owners";

let t: TestApp;
let receiver: WebhookReceiver;
let telegram: ReturnType<typeof chatOwnersTelegram>;
beforeEach(() => {
  telegram = chatOwnersTelegram();
  t = createTestApp({ env: telegram.env });
  receiver = new WebhookReceiver().start();
});
afterEach(async () => {
  receiver.stop();
  t.close();
  await telegram.stop();
});

const channel = { chatId: "-1001111111111", type: "channel" as const, title: "Tech News", username: "technews" };
const post = (messageId: number, text: string, chat = channel) => ingestPost(t.deps, { chat, messageId, text });

describe("trackers CRUD", () => {
  test("create answers 201 with the spec's defaults; list, get, patch, delete", async () => {
    const { token } = await t.telegramUser();
    const created = await t.request("POST", "/api/tracking", { token, body: { name: "Rust", keyword: "rust", unknown_field: 1 } });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: created.json.id,
      name: "Rust",
      keyword: "rust",
      exact_match: false,
      syntax: "plain",
      word_forms: false,
      skip_reposts: false,
      watch_links: false,
      minus_words: null,
      search_channels: true,
      search_chats: true,
      filter_geo: null,
      filter_language: null,
      filter_category: null,
      filter_min_subscribers: null,
      include_sources: null,
      exclude_sources: null,
      notify_via: "bot",
      notify_chat_id: null,
      notify_thread_id: null,
      notify_every: "instant",
      webhook_url: null,
      notify_on_delete: false,
      is_enabled: true,
      total_matches: 0,
      created_at: t.clock.now().toISOString(),
    });
    expect((await t.request("GET", "/api/tracking", { token })).json).toEqual([created.json]);
    expect((await t.request("GET", `/api/tracking/${created.json.id}`, { token })).json).toEqual(created.json);

    const patched = await t.request("PATCH", `/api/tracking/${created.json.id}`, {
      token,
      body: {
        exact_match: true,
        minus_words: ["job", " "],
        filter_geo: "ru",
        filter_language: "EN",
        filter_category: "Tech",
        include_sources: ["@technews", "https://t.me/c/123/4", "-100999"],
        is_enabled: false,
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({
      name: "Rust",
      exact_match: true,
      minus_words: ["job"],
      filter_geo: "RU",
      filter_language: "en",
      filter_category: "tech",
      include_sources: ["@technews", "https://t.me/c/123/4", "-100999"],
      is_enabled: false,
    });

    expect((await t.request("DELETE", `/api/tracking/${created.json.id}`, { token })).json).toEqual({ success: true });
    expect((await t.request("GET", `/api/tracking/${created.json.id}`, { token })).status).toBe(404);
  });

  test("another user's tracker is 404 everywhere", async () => {
    const a = await t.telegramUser(1, "a");
    const b = await t.telegramUser(2, "b");
    const { json } = await t.request("POST", "/api/tracking", { token: a.token, body: { name: "x", keyword: "x" } });
    for (const [method, path] of [
      ["GET", ""],
      ["PATCH", ""],
      ["DELETE", ""],
      ["GET", "/matches"],
      ["GET", "/matches/unread"],
      ["POST", "/matches/read-all"],
      ["POST", "/test"],
    ]) {
      const res = await t.request(method!, `/api/tracking/${json.id}${path}`, {
        token: b.token,
        body: method === "PATCH" ? { name: "y" } : undefined,
      });
      expect(res.status).toBe(404);
      expect(res.json.error).toBe("not_found");
    }
  });

  test("validation errors name the field", async () => {
    const { token } = await t.telegramUser();
    const bad = async (body: unknown, field: string) => {
      const res = await t.request("POST", "/api/tracking", { token, body });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe("validation_error");
      expect(res.json.details[0].field).toBe(field);
      return res.json.details[0].message as string;
    };
    await bad({ name: "x" }, "keyword");
    await bad({ keyword: "x" }, "name");
    expect(await bad({ name: "x", keyword: "k".repeat(801) }, "keyword")).toContain("800");
    await bad({ name: "x", keyword: "\u200B  " }, "keyword");
    await bad({ name: "x", keyword: 5 }, "keyword");
    expect(await bad({ name: "x", keyword: "k", notify_via: "webhook" }, "webhook_url")).toContain("required");
    await bad({ name: "x", keyword: "k", notify_via: "email" }, "notify_via");
    await bad({ name: "x", keyword: "k", filter_geo: "XX" }, "filter_geo");
    await bad({ name: "x", keyword: "k", filter_language: "klingon" }, "filter_language");
    await bad({ name: "x", keyword: "k", filter_category: "gossip" }, "filter_category");
    await bad({ name: "x", keyword: "k", filter_min_subscribers: -1 }, "filter_min_subscribers");
    expect(await bad({ name: "x", keyword: "k", include_sources: ["not a chat!"] }, "include_sources")).toContain("not a chat!");
    await bad({ name: "x", keyword: "k", search_channels: false, search_chats: false }, "search_channels");
    await bad({ name: "x", keyword: "k", notify_via: "webhook", webhook_url: "ftp://x" }, "webhook_url");
    expect((await t.request("POST", "/api/tracking", { token, body: { name: "ok", keyword: "k".repeat(800) } })).status).toBe(201);
    // PATCH uses the same rules, on the tracker as it would become
    const id = (await t.request("GET", "/api/tracking", { token })).json[0].id;
    const patch = await t.request("PATCH", `/api/tracking/${id}`, { token, body: { notify_via: "webhook" } });
    expect(patch.status).toBe(400);
    expect(patch.json.details[0].field).toBe("webhook_url");
    expect((await t.request("GET", "/api/tracking/abc", { token })).status).toBe(400);
  });

  test("queries: a query that does not parse is a 400 invalid_query naming the position, and changes nothing", async () => {
    const { token } = await t.telegramUser();
    const invalid = async (body: Record<string, unknown>, method = "POST", path = "/api/tracking") => {
      const res = await t.request(method, path, { token, body: { name: "q", ...body } });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe("invalid_query");
      expect(res.json.details[0].field).toBe("keyword");
      return res.json.message as string;
    };
    expect(await invalid({ keyword: 'bitcoin "etf', syntax: "query" })).toBe("the quote at position 9 is not closed");
    expect(await invalid({ keyword: "(bitcoin OR eth", syntax: "query" })).toBe("the parenthesis at position 1 is not closed");
    expect(await invalid({ keyword: "bitcoin OR", syntax: "query" })).toContain("position 11");
    expect(await invalid({ keyword: Array.from({ length: 31 }, (_, i) => `w${i}`).join(" "), syntax: "query" })).toContain("at most 30");
    expect(await invalid({ keyword: "a".repeat(501), syntax: "query" })).toContain("at most 500 characters");
    expect((await t.request("GET", "/api/tracking", { token })).json).toEqual([]);
    const wrongSyntax = await t.request("POST", "/api/tracking", { token, body: { name: "q", keyword: "x", syntax: "sql" } });
    expect([wrongSyntax.status, wrongSyntax.json.error]).toEqual([400, "validation_error"]);

    const created = await t.request("POST", "/api/tracking", {
      token,
      body: { name: "crypto", keyword: "(bitcoin OR ethereum) -scam", syntax: "query", word_forms: true },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ keyword: "(bitcoin OR ethereum) -scam", syntax: "query", word_forms: true, skip_reposts: false });
    // a plain keyword that is not a query becomes invalid when the syntax changes; the tracker stays as it was
    const plain = await t.request("POST", "/api/tracking", { token, body: { name: "p", keyword: "rock | roll (" } });
    expect(plain.status).toBe(201);
    expect(await invalid({ syntax: "query" }, "PATCH", `/api/tracking/${plain.json.id}`)).toBe(
      "the parenthesis at position 13 is not closed",
    );
    expect((await t.request("GET", `/api/tracking/${plain.json.id}`, { token })).json).toEqual(plain.json);

    await post(1, "Ethereum ETF approved");
    await post(2, "Ethereum scam alert");
    const matches = (await t.request("GET", `/api/tracking/${created.json.id}/matches`, { token })).json;
    expect(matches.items.map((m: { matched_keyword: string }) => m.matched_keyword)).toEqual(["Ethereum"]);
  });

  test("notify_via chat: 400 without a chat, 400 chat_not_yours for a chat that is not the caller's channel; the caller's own group is taken", async () => {
    const { token } = await t.telegramUser(42, "alice");
    await t.telegramUser(43, "bob");
    await recordBotMembership(
      t.deps,
      { chatId: "-1002000000001", type: "supergroup", title: "Bob's team", username: null },
      { id: 43 },
      { isAdmin: true, canInvite: true },
      3,
    );
    await recordBotMembership(
      t.deps,
      { chatId: "-1002000000002", type: "supergroup", title: "Alice's team", username: null },
      { id: 42 },
      { isAdmin: true, canInvite: true },
      3,
    );
    telegram.runs("-1002000000002", 42);
    const missing = await t.request("POST", "/api/tracking", { token, body: { name: "c", keyword: "k", notify_via: "chat" } });
    expect([missing.status, missing.json.error, missing.json.details[0].field]).toEqual([400, "validation_error", "notify_chat_id"]);
    const foreign = await t.request("POST", "/api/tracking", {
      token,
      body: { name: "c", keyword: "k", notify_via: "chat", notify_chat_id: "-1002000000001" },
    });
    expect([foreign.status, foreign.json.error]).toEqual([400, "chat_not_yours"]);
    expect(foreign.json.message).toContain("one of your channels or groups");
    expect((await t.request("GET", "/api/tracking", { token })).json).toEqual([]);
    const ok = await t.request("POST", "/api/tracking", {
      token,
      body: { name: "c", keyword: "k", notify_via: "chat", notify_chat_id: -1002000000002, notify_thread_id: 5, notify_every: "day" },
    });
    expect(ok.status).toBe(201);
    expect(ok.json).toMatchObject({ notify_via: "chat", notify_chat_id: "-1002000000002", notify_thread_id: 5, notify_every: "day" });
  });

  test("lengths count characters, not UTF-16 units: 800 emoji are a valid keyword, 801 are not", async () => {
    const { token } = await t.telegramUser();
    const ok = await t.request("POST", "/api/tracking", {
      token,
      body: { name: "🚀".repeat(100), keyword: "🚀".repeat(800), minus_words: ["💥".repeat(100)] },
    });
    expect(ok.status).toBe(201);
    expect(ok.json.keyword).toBe("🚀".repeat(800));
    const tooLong = await t.request("POST", "/api/tracking", { token, body: { name: "x", keyword: "🚀".repeat(801) } });
    expect([tooLong.status, tooLong.json.details[0].field]).toEqual([400, "keyword"]);
    const longName = await t.request("PATCH", `/api/tracking/${ok.json.id}`, { token, body: { name: "🚀".repeat(101) } });
    expect([longName.status, longName.json.details[0].field]).toEqual([400, "name"]);
  });

  test("a webhook target is validated with a test request; failing targets are refused", async () => {
    const { token } = await t.telegramUser();
    receiver.respond = 500;
    const refused = await t.request("POST", "/api/tracking", {
      token,
      body: { name: "w", keyword: "k", notify_via: "webhook", webhook_url: `${receiver.url}/hook` },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.details[0]).toEqual({
      field: "webhook_url",
      message: "validation request failed: the target answered 500; it must answer 200 or 201",
    });
    receiver.respond = 200;
    const ok = await t.request("POST", "/api/tracking", {
      token,
      body: { name: "w", keyword: "k", notify_via: "webhook", webhook_url: `${receiver.url}/hook` },
    });
    expect(ok.status).toBe(201);
    expect(receiver.received).toHaveLength(2);
    expect(JSON.parse(receiver.received[1]!.body).event).toBe("validation");
  });

  test("webhook targets get the link webhooks' SSRF rules: internal addresses are refused, on create and on PATCH", async () => {
    const strict = createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: "false" } });
    try {
      const { token } = await strict.telegramUser();
      const refused = await strict.request("POST", "/api/tracking", {
        token,
        body: { name: "w", keyword: "k", notify_via: "webhook", webhook_url: `${receiver.url}/hook` },
      });
      expect(refused.status).toBe(400);
      expect(refused.json.details[0].field).toBe("webhook_url");
      expect(refused.json.details[0].message).toContain("may not target internal networks");
      const { json: tr } = await strict.request("POST", "/api/tracking", { token, body: { name: "b", keyword: "k" } });
      const patch = await strict.request("PATCH", `/api/tracking/${tr.id}`, {
        token,
        body: { notify_via: "webhook", webhook_url: "http://169.254.169.254/latest" },
      });
      expect(patch.status).toBe(400);
      expect(patch.json.details[0].message).toContain("may not target internal networks");
      expect(receiver.received).toHaveLength(0);
    } finally {
      strict.close();
    }
  });
});

describe("limits, filters, scopes", () => {
  test("the plan caps the number of trackers (403 plan_limit) and /limits reports it", async () => {
    const { token } = await t.telegramUser();
    expect((await t.request("GET", "/api/tracking/limits", { token })).json).toEqual({ current: 0, max: 2, plan: "free" });
    for (const k of ["a", "b"])
      expect((await t.request("POST", "/api/tracking", { token, body: { name: k, keyword: k } })).status).toBe(201);
    const third = await t.request("POST", "/api/tracking", { token, body: { name: "c", keyword: "c" } });
    expect(third.status).toBe(403);
    expect(third.json.error).toBe("plan_limit");
    expect(third.json.message).toContain("2 trackers");
    expect((await t.request("GET", "/api/tracking/limits", { token })).json).toEqual({ current: 2, max: 2, plan: "free" });
  });

  test("concurrent creates cannot pass the limit together (while their webhook targets are being validated)", async () => {
    const { token } = await t.telegramUser();
    const body = (k: string) => ({ name: k, keyword: k, notify_via: "webhook", webhook_url: `${receiver.url}/${k}` });
    const results = await Promise.all(["a", "b", "c", "d"].map((k) => t.request("POST", "/api/tracking", { token, body: body(k) })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 403, 403]);
    expect((await t.request("GET", "/api/tracking", { token })).json).toHaveLength(2);
  });

  test("filters list countries, languages and categories with labels", async () => {
    const { token } = await t.telegramUser();
    const { status, json } = await t.request("GET", "/api/tracking/filters", { token });
    expect(status).toBe(200);
    expect(json.geo).toContainEqual({ code: "RU", label: "Russia" });
    expect(json.geo).toContainEqual({ code: "DE", label: "Germany" });
    expect(json.geo.length).toBe(249);
    expect(json.languages).toContainEqual({ code: "uk", label: "Ukrainian" });
    expect(json.languages.length).toBe(183);
    expect(json.categories.map((c: { code: string }) => c.code)).toEqual(expect.arrayContaining(["news", "tech", "crypto", "business"]));
  });

  test("API tokens need read:tracking / write:tracking", async () => {
    const { token } = await t.telegramUser();
    const read = (await t.request("POST", "/api/tokens", { token, body: { name: "r", scopes: ["read:tracking"] } })).json.token;
    expect((await t.request("GET", "/api/tracking", { token: read })).status).toBe(200);
    const denied = await t.request("POST", "/api/tracking", { token: read, body: { name: "x", keyword: "x" } });
    expect(denied.status).toBe(403);
    expect(denied.json.error).toBe("insufficient_scope");
    const write = (await t.request("POST", "/api/tokens", { token, body: { name: "w", scopes: ["write:tracking"] } })).json.token;
    expect((await t.request("POST", "/api/tracking", { token: write, body: { name: "x", keyword: "x" } })).status).toBe(201);
    expect((await t.request("GET", "/api/tracking")).status).toBe(401);
  });
});

describe("matches", () => {
  test("paged newest first, unread count, read-all; defaults 20/0, max 100", async () => {
    const { token } = await t.telegramUser();
    const { json: tr } = await t.request("POST", "/api/tracking", { token, body: { name: "BTC", keyword: "bitcoin" } });
    await upsertSource(t.deps, channel, { memberCount: 5000 });
    for (let i = 1; i <= 25; i++) await post(i, `Post ${i}: Bitcoin is up`);
    await post(26, "nothing relevant");
    const page = await t.request("GET", `/api/tracking/${tr.id}/matches`, { token });
    expect(page.json.total).toBe(25);
    expect(page.json.items).toHaveLength(20);
    expect(page.json.items[0]).toEqual({
      id: page.json.items[0].id,
      tracker_id: tr.id,
      source_title: "Tech News",
      source_username: "technews",
      source_message_id: 25,
      text_snippet: "Post 25: Bitcoin is up",
      matched_keyword: "Bitcoin",
      post_url: "https://t.me/technews/25",
      is_deleted: false,
      no_longer_matches: false,
      is_read: false,
      detected_at: t.clock.now().toISOString(),
    });
    const rest = await t.request("GET", `/api/tracking/${tr.id}/matches?limit=10&offset=20`, { token });
    expect(rest.json.items.map((m: { source_message_id: number }) => m.source_message_id)).toEqual([5, 4, 3, 2, 1]);
    expect(rest.json.total).toBe(25);
    // a page past the end still tells how many there are
    expect((await t.request("GET", `/api/tracking/${tr.id}/matches?limit=10&offset=40`, { token })).json).toEqual({ items: [], total: 25 });
    expect((await t.request("GET", `/api/tracking/${tr.id}/matches?limit=101`, { token })).status).toBe(400);
    expect((await t.request("GET", `/api/tracking/${tr.id}`, { token })).json.total_matches).toBe(25);
    expect((await t.request("GET", `/api/tracking/${tr.id}/matches/unread`, { token })).json).toEqual({ count: 25 });
    expect((await t.request("POST", `/api/tracking/${tr.id}/matches/read-all`, { token })).json).toEqual({ success: true });
    expect((await t.request("GET", `/api/tracking/${tr.id}/matches/unread`, { token })).json).toEqual({ count: 0 });
  });

  test("a fractional or out-of-range limit/offset is a 400, not a server error", async () => {
    const { token } = await t.telegramUser();
    const { json: tr } = await t.request("POST", "/api/tracking", { token, body: { name: "BTC", keyword: "bitcoin" } });
    for (const q of ["limit=20.5", "offset=1.5", "offset=99999999999999999999", "limit=0", "offset=-1"]) {
      const res = await t.request("GET", `/api/tracking/${tr.id}/matches?${q}`, { token });
      expect([q, res.status, res.json.error]).toEqual([q, 400, "validation_error"]);
    }
    expect((await t.request("GET", `/api/tracking/${tr.id}/matches?limit=100&offset=9007199254740991`, { token })).json).toEqual({
      items: [],
      total: 0,
    });
  });

  test("changes through the API reach the live index at once: create, patch, disable, enable, delete", async () => {
    const { token } = await t.telegramUser();
    await post(1, "warm-up: the index is built before the tracker exists");
    const { json: tr } = await t.request("POST", "/api/tracking", { token, body: { name: "A", keyword: "alpha" } });
    const matched = async (id: number, text: string) => (await post(id, text)).map((m) => m.trackerId);
    expect(await matched(2, "alpha")).toEqual([tr.id]);
    await t.request("PATCH", `/api/tracking/${tr.id}`, { token, body: { keyword: "beta" } });
    expect(await matched(3, "alpha")).toEqual([]);
    expect(await matched(4, "beta")).toEqual([tr.id]);
    await t.request("PATCH", `/api/tracking/${tr.id}`, { token, body: { is_enabled: false } });
    expect(await matched(5, "beta")).toEqual([]);
    await t.request("PATCH", `/api/tracking/${tr.id}`, { token, body: { is_enabled: true, minus_words: ["gamma"] } });
    expect(await matched(6, "beta gamma")).toEqual([]);
    expect(await matched(7, "beta")).toEqual([tr.id]);
    await t.request("DELETE", `/api/tracking/${tr.id}`, { token });
    expect(await matched(8, "beta")).toEqual([]);
  });

  test("webhook trackers enqueue {event: keyword_match, tracker, match}; test sends a sample", async () => {
    const { user, token } = await t.telegramUser();
    const { json: tr } = await t.request("POST", "/api/tracking", {
      token,
      body: { name: "Hook", keyword: "launch", notify_via: "webhook", webhook_url: `${receiver.url}/tracker` },
    });
    const [match] = await post(7, "Rocket LAUNCH at dawn");
    const rows = await t.deps.asyncDb
      .select()
      .from(t.deps.asyncDb.tables.outbox)
      .where(eq(t.deps.asyncDb.tables.outbox.topic, "tracker_webhook"));
    expect(rows).toHaveLength(1);
    const tracker = (await t.request("GET", `/api/tracking/${tr.id}`, { token })).json;
    const apiMatch = (await t.request("GET", `/api/tracking/${tr.id}/matches`, { token })).json.items[0];
    expect(rows[0]).toMatchObject({
      userId: user.id,
      kind: "webhook",
      refId: tr.id,
      target: `${receiver.url}/tracker`,
      method: "POST",
      status: "pending",
    });
    expect(rows[0]!.payload).toEqual({ event: "keyword_match", tracker, match: apiMatch });
    expect(apiMatch.id).toBe(match!.id);

    expect((await t.request("POST", `/api/tracking/${tr.id}/test`, { token })).json).toEqual({ success: true });
    const sample = (
      await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.outbox).where(eq(t.deps.asyncDb.tables.outbox.topic, "tracker_webhook"))
    )[1]!;
    expect(sample.payload).toMatchObject({
      event: "keyword_match",
      test: true,
      tracker: { id: tr.id },
      match: { id: 0, matched_keyword: "launch" },
    });
  });
});
