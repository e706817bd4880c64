import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { addVerifiedDomain } from "../helpers/domains";
import { createTestApp, type TestApp } from "../helpers/app";
import { WebhookReceiver } from "../helpers/webhook-receiver";

let t: TestApp;
let token: string;
beforeEach(async () => {
  t = createTestApp({ env: { PLAN_LIMITS: JSON.stringify({ free: { links: 5 } }) } });
  token = (await t.telegramUser()).token;
});
afterEach(() => t.close());

const inOneDay = () => new Date(t.clock.now().getTime() + 86400000).toISOString();
const inTwoDays = () => new Date(t.clock.now().getTime() + 2 * 86400000).toISOString();
const create = (body: Record<string, unknown>, tok = token) => t.request("POST", "/api/links", { token: tok, body });

describe("create", () => {
  test("answers 201 with the spec's fields and a random 8-character code", async () => {
    const res = await create({ url: "https://example.com/page?a=1", title: "Launch" });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      id: expect.any(Number),
      code: expect.stringMatching(/^[A-Za-z0-9]{8}$/),
      trackingUrl: `${t.config.shortUrl}/${res.json.code}`,
      original_url: "https://example.com/page?a=1",
      title: "Launch",
    });
    const other = await create({ url: "https://example.com/page?a=1" });
    expect(other.json.code).not.toBe(res.json.code);
  });

  test("refuses every invalid field with a detail naming it", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, "url"],
      [{ url: "example.com" }, "url"],
      [{ url: "ftp://example.com/x" }, "url"],
      [{ url: "javascript:alert(1)" }, "url"],
      [{ url: "https://ok.example", expired_url: "nope" }, "expired_url"],
      [{ url: "https://ok.example", ios_url: "/relative" }, "ios_url"],
      [{ url: "https://ok.example", android_url: "mailto:a@b.c" }, "android_url"],
      [{ url: "https://ok.example", desktop_url: "http//x" }, "desktop_url"],
      [{ url: "https://ok.example", webhook_url: "not a url" }, "webhook_url"],
      [{ url: "https://ok.example", starts_at: "2020-01-01T00:00:00Z" }, "starts_at"],
      [{ url: "https://ok.example", starts_at: "tomorrow" }, "starts_at"],
      [{ url: "https://ok.example", expires_at: "2020-01-01T00:00:00Z" }, "expires_at"],
      [{ url: "https://ok.example", starts_at: inTwoDays(), expires_at: inOneDay() }, "starts_at"],
      [{ url: "https://ok.example", max_clicks: 0 }, "max_clicks"],
      [{ url: "https://ok.example", max_clicks: 2.5 }, "max_clicks"],
      [{ url: "https://ok.example", max_clicks: "10" }, "max_clicks"],
      [{ url: "https://ok.example", tagIds: [999] }, "tagIds"],
      [{ url: "https://ok.example", pixelIds: [999] }, "pixelIds"],
      [{ url: "https://ok.example", domain_id: 999 }, "domain_id"],
      [{ url: "https://ok.example", webhook_method: "PUT" }, "webhook_method"],
      [{ url: "https://ok.example", title: "x".repeat(201) }, "title"],
      // link passwords follow the share passwords' rule: 4 to 128 characters
      [{ url: "https://ok.example", password: "ab" }, "password"],
      [{ url: "https://ok.example", password: "x".repeat(129) }, "password"],
      [{ url: "https://ok.example", code: "ab" }, "code"],
      [{ url: "https://ok.example", code: "api" }, "code"],
      [{ url: "https://ok.example", code: "healthz" }, "code"],
      [{ url: "https://ok.example", code: "app" }, "code"],
      [{ url: "https://ok.example", code: "s" }, "code"],
      [{ url: "https://ok.example", code: "API" }, "code"],
      [{ url: "https://ok.example", code: "has space" }, "code"],
      [{ url: "https://ok.example/a b" }, "url"], // new URL() would store it as %20
      [{ url: "https://ok.example", ios_url: "https://apps.example/x\ty" }, "ios_url"],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect({ body, status: res.status, error: res.json.error }).toEqual({ body, status: 400, error: "validation_error" });
      expect(res.json.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await t.request("GET", "/api/links", { token })).json).toEqual([]);
  });

  test("a title and UTM values of 200 characters are kept; one more is refused with the limit named, by the API and the core alike", async () => {
    const at = "x".repeat(200);
    const made = await create({ url: "https://ok.example", title: at, utm_source: at, utm_medium: at, utm_campaign: at });
    expect(made.status).toBe(201);
    expect((await t.request("GET", `/api/links/${made.json.id}`, { token })).json.title).toBe(at);
    for (const field of ["title", "utm_source", "utm_medium", "utm_campaign"]) {
      const res = await create({ url: "https://ok.example", [field]: `${at}y` });
      expect({ status: res.status, details: res.json.details }).toEqual({
        status: 400,
        details: [{ field, message: "must be at most 200 characters" }],
      });
      const edited = await t.request("PATCH", `/api/links/${made.json.id}`, { token, body: { [field]: `${at}y` } });
      expect({ status: edited.status, details: edited.json.details }).toEqual({
        status: 400,
        details: [{ field, message: "must be at most 200 characters" }],
      });
    }
  });

  test("out-of-range values are refused with a message that says what is wanted", async () => {
    for (const [body, field, message] of [
      [{ max_clicks: 0 }, "max_clicks", "must be a positive whole number"],
      [{ max_clicks: -3 }, "max_clicks", "must be a positive whole number"],
      [{ domain_id: 0 }, "domain_id", "no domain with id 0"],
      [{ tagIds: [0] }, "tagIds", "unknown tag id: 0"],
      [{ starts_at: inTwoDays(), expires_at: inOneDay() }, "starts_at", "must be earlier than expires_at"],
    ] as const) {
      const res = await create({ url: "https://ok.example", ...body });
      expect(res.status).toBe(400);
      expect(res.json.details).toContainEqual({ field, message });
    }
    const l = await create({ url: "https://ok.example", starts_at: inTwoDays() });
    const edit = await t.request("PATCH", `/api/links/${l.json.id}`, { token, body: { expires_at: inOneDay() } });
    expect(edit.json.details).toEqual([{ field: "expires_at", message: "must be later than starts_at" }]);
  });

  test("a date-time without a zone is UTC, whatever the server's time zone", async () => {
    const tz = process.env.TZ;
    process.env.TZ = "Europe/Moscow";
    try {
      const res = await create({ url: "https://ok.example", starts_at: "2030-05-01T12:00", expires_at: "2030-05-02 08:30:15" });
      const got = (await t.request("GET", `/api/links/${res.json.id}`, { token })).json;
      expect([got.starts_at, got.expires_at]).toEqual(["2030-05-01T12:00:00.000Z", "2030-05-02T08:30:15.000Z"]);
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  test("tags, pixels and domains of another user are unknown (400)", async () => {
    const bob = await t.emailUser("bob@example.com");
    const tag = await t.request("POST", "/api/tags", { token: bob.token, body: { name: "bob's" } });
    const pixel = await t.request("POST", "/api/pixels", {
      token: bob.token,
      body: { name: "fb", type: "facebook", pixelId: "1234567890" },
    });
    const domain = await t.request("POST", "/api/domains", { token: bob.token, body: { hostname: "go.bob.example" } });
    const res = await create({ url: "https://ok.example", tagIds: [tag.json.id], pixelIds: [pixel.json.id], domain_id: domain.json.id });
    expect(res.status).toBe(400);
    expect(res.json.details.map((d: { field: string }) => d.field).sort()).toEqual(["domain_id", "pixelIds", "tagIds"]);
  });

  test("custom code: used as given, 409 when taken", async () => {
    const res = await create({ url: "https://ok.example", code: "Spring-Sale_1" });
    expect(res.status).toBe(201);
    expect(res.json.trackingUrl).toBe(`${t.config.shortUrl}/Spring-Sale_1`);
    const again = await create({ url: "https://other.example", code: "Spring-Sale_1" });
    expect(again.status).toBe(409);
    expect(again.json.error).toBe("code_taken");
  });

  test("plan limit: the 6th link on a 5-link plan is 403 plan_limit", async () => {
    for (let i = 0; i < 5; i++) expect((await create({ url: `https://ok.example/${i}` })).status).toBe(201);
    const res = await create({ url: "https://ok.example/6" });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe("plan_limit");
    expect(res.json.message).toContain("5 links");
  });

  test("scopes: read:links may list but not create; write:links creates", async () => {
    const ro = await t.request("POST", "/api/tokens", { token, body: { name: "ro", scopes: ["read:links"] } });
    const rw = await t.request("POST", "/api/tokens", { token, body: { name: "rw", scopes: ["write:links"] } });
    expect((await create({ url: "https://ok.example" }, ro.json.token)).status).toBe(403);
    expect((await t.request("GET", "/api/links", { token: ro.json.token })).status).toBe(200);
    expect((await create({ url: "https://ok.example" }, rw.json.token)).status).toBe(201);
    expect((await t.request("GET", "/api/links", { token: rw.json.token })).status).toBe(403);
    expect((await t.request("GET", "/api/links")).status).toBe(401);
  });
});

describe("edit, get, list, delete", () => {
  test("edit changes fields, null clears them, the code never changes", async () => {
    const c = await create({
      url: "https://ok.example",
      title: "A",
      utm_source: "tg",
      max_clicks: 5,
      password: "pw-1234",
      expires_at: inTwoDays(),
    });
    const e = await t.request("PATCH", `/api/links/${c.json.id}`, {
      token,
      body: {
        title: null,
        url: "https://new.example/x",
        utm_source: null,
        max_clicks: null,
        password: null,
        expires_at: null,
        code: "changed",
        is_active: false,
      },
    });
    expect(e.status).toBe(200);
    expect(e.json).toEqual({
      id: c.json.id,
      code: c.json.code,
      trackingUrl: c.json.trackingUrl,
      original_url: "https://new.example/x",
      title: null,
    });
    const g = await t.request("GET", `/api/links/${c.json.id}`, { token });
    expect(g.json).toMatchObject({
      code: c.json.code,
      title: null,
      utm_source: null,
      max_clicks: null,
      has_password: false,
      expires_at: null,
      is_active: false,
    });
    const bad = await t.request("PATCH", `/api/links/${c.json.id}`, { token, body: { url: null } });
    expect(bad.status).toBe(400);
    expect(bad.json.details[0].field).toBe("url");
    // starts_at is checked against the stored expires_at
    await t.request("PATCH", `/api/links/${c.json.id}`, { token, body: { expires_at: inOneDay() } });
    const order = await t.request("PATCH", `/api/links/${c.json.id}`, { token, body: { starts_at: inTwoDays() } });
    expect(order.status).toBe(400);
    expect(order.json.details[0].message).toContain("earlier than expires_at");
  });

  test("null clears every optional field; the visit then goes straight to the url", async () => {
    const rx = new WebhookReceiver().start();
    const tag = (await t.request("POST", "/api/tags", { token, body: { name: "x" } })).json;
    const px = (await t.request("POST", "/api/pixels", { token, body: { name: "fb", type: "facebook", pixelId: "1234567890" } })).json;
    const dom = await addVerifiedDomain(t, token, "go.brand.example");
    const c = await create({
      url: "https://a.example/",
      title: "T",
      utm_source: "s",
      utm_medium: "m",
      utm_campaign: "c",
      tagIds: [tag.id],
      starts_at: inOneDay(),
      expires_at: inTwoDays(),
      expired_url: "https://e.example/",
      max_clicks: 3,
      password: "pw-1234",
      ios_url: "https://i.example/",
      android_url: "https://an.example/",
      desktop_url: "https://d.example/",
      pixelIds: [px.id],
      domain_id: dom.id,
      webhook_url: `${rx.url}/in`,
    });
    rx.stop();
    expect(c.status).toBe(201);
    const fields = [
      "title",
      "utm_source",
      "utm_medium",
      "utm_campaign",
      "tagIds",
      "starts_at",
      "expires_at",
      "expired_url",
      "max_clicks",
      "password",
      "ios_url",
      "android_url",
      "desktop_url",
      "pixelIds",
      "domain_id",
      "webhook_url",
    ];
    const e = await t.request("PATCH", `/api/links/${c.json.id}`, { token, body: Object.fromEntries(fields.map((k) => [k, null])) });
    expect(e.status).toBe(200);
    const g = (await t.request("GET", `/api/links/${c.json.id}`, { token })).json;
    expect(g).toMatchObject({
      code: c.json.code,
      original_url: "https://a.example/",
      title: null,
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      tagIds: [],
      starts_at: null,
      expires_at: null,
      expired_url: null,
      max_clicks: null,
      has_password: false,
      ios_url: null,
      android_url: null,
      desktop_url: null,
      pixelIds: [],
      domain_id: null,
      webhook_url: null,
      webhook_enabled: false,
    });
    expect(g.trackingUrl).toBe(`${t.config.shortUrl}/${c.json.code}`);
    const visit = await t.request("GET", `/${c.json.code}`, {
      headers: { "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)" },
    });
    expect(visit.status).toBe(302);
    expect(visit.headers.get("location")).toBe("https://a.example/");
  });

  test("an edit that sends back a start already passed, unchanged, is accepted; a new past start is not", async () => {
    const c = await create({ url: "https://ok.example", title: "A", starts_at: inOneDay(), expires_at: inTwoDays() });
    const got = (await t.request("GET", `/api/links/${c.json.id}`, { token })).json;
    t.clock.advance(1.5 * 86400000);
    const e = await t.request("PATCH", `/api/links/${c.json.id}`, {
      token,
      body: { title: "B", starts_at: got.starts_at, expires_at: got.expires_at },
    });
    expect(e.status).toBe(200);
    expect(e.json.title).toBe("B");
    const moved = await t.request("PATCH", `/api/links/${c.json.id}`, {
      token,
      body: { starts_at: new Date(t.clock.now().getTime() - 1000).toISOString() },
    });
    expect(moved.json.details).toEqual([{ field: "starts_at", message: "must be in the future" }]);
  });

  test("get returns the webhook fields; other users' links are 404 everywhere", async () => {
    const c = await create({ url: "https://ok.example" });
    const g = await t.request("GET", `/api/links/${c.json.id}`, { token });
    expect(g.json).toMatchObject({
      id: c.json.id,
      code: c.json.code,
      original_url: "https://ok.example",
      title: null,
      trackingUrl: c.json.trackingUrl,
      webhook_url: null,
      webhook_method: "POST",
      webhook_enabled: false,
      webhook_failures: 0,
    });
    const bob = await t.emailUser();
    for (const [m, body] of [
      ["GET", undefined],
      ["PATCH", { title: "x" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await t.request(m, `/api/links/${c.json.id}`, { token: bob.token, body });
      expect(res.status).toBe(404);
      expect(res.json.error).toBe("not_found");
    }
    expect((await t.request("GET", `/api/links/999`, { token })).status).toBe(404);
    expect((await t.request("GET", `/api/links/abc`, { token })).status).toBe(400);
  });

  test("list has stats and filters by tags; delete answers success", async () => {
    const a = await t.request("POST", "/api/tags", { token, body: { name: "promo" } });
    const b = await t.request("POST", "/api/tags", { token, body: { name: "news" } });
    const l1 = await create({ url: "https://ok.example/1", tagIds: [a.json.id] });
    const l2 = await create({ url: "https://ok.example/2", tagIds: [b.json.id, a.json.id] });
    const l3 = await create({ url: "https://ok.example/3" });
    const all = await t.request("GET", "/api/links", { token });
    expect(all.json.map((l: { id: number }) => l.id)).toEqual([l3.json.id, l2.json.id, l1.json.id]);
    expect(all.json[0]).toMatchObject({
      id: l3.json.id,
      code: l3.json.code,
      original_url: "https://ok.example/3",
      title: null,
      stats: { totalClicks: 0, uniqueClicks: 0, botClicks: 0 },
    });
    const promo = await t.request("GET", `/api/links?tags=${a.json.id}`, { token });
    expect(promo.json.map((l: { id: number }) => l.id)).toEqual([l2.json.id, l1.json.id]);
    const news = await t.request("GET", `/api/links?tags=${b.json.id},${a.json.id}`, { token });
    expect(news.json).toHaveLength(2);
    expect((await t.request("GET", `/api/links?tags=x`, { token })).status).toBe(400);
    expect((await t.request("DELETE", `/api/links/${l1.json.id}`, { token })).json).toEqual({ success: true });
    expect((await t.request("GET", `/api/links/${l1.json.id}`, { token })).status).toBe(404);
  });
});

describe("webhook fields", () => {
  let rx: WebhookReceiver;
  beforeEach(() => (rx = new WebhookReceiver().start()));
  afterEach(() => rx.stop());

  test("a webhook is validated before saving and enabled; a failing target is 400 and nothing is saved", async () => {
    const c = await create({ url: "https://ok.example", webhook_url: `${rx.url}/hook`, webhook_method: "GET" });
    expect(c.status).toBe(201);
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.method).toBe("GET");
    const g = await t.request("GET", `/api/links/${c.json.id}`, { token });
    expect(g.json).toMatchObject({ webhook_url: `${rx.url}/hook`, webhook_method: "GET", webhook_enabled: true, webhook_failures: 0 });

    rx.respond = 500;
    const bad = await create({ url: "https://ok.example/2", webhook_url: `${rx.url}/down` });
    expect(bad.status).toBe(400);
    expect(bad.json.details[0]).toEqual({ field: "webhook_url", message: expect.stringContaining("500") });
    expect((await t.request("GET", "/api/links", { token })).json).toHaveLength(1);
    const badEdit = await t.request("PATCH", `/api/links/${c.json.id}`, { token, body: { webhook_url: `${rx.url}/other` } });
    expect(badEdit.status).toBe(400);
    expect((await t.request("GET", `/api/links/${c.json.id}`, { token })).json.webhook_url).toBe(`${rx.url}/hook`);
  });

  test("re-enabling by edit resets the failure count; removing the url disables", async () => {
    const c = await create({ url: "https://ok.example", webhook_url: `${rx.url}/hook` });
    const { eq } = await import("drizzle-orm");
    await t.deps.asyncDb
      .update(t.deps.asyncDb.tables.links)
      .set({ webhookEnabled: false, webhookFailures: 100 })
      .where(eq(t.deps.asyncDb.tables.links.id, c.json.id));
    const sent = rx.received.length;
    await t.request("PATCH", `/api/links/${c.json.id}`, { token, body: { webhook_enabled: true } });
    expect(rx.received.length).toBe(sent); // same url: no new validation
    expect((await t.request("GET", `/api/links/${c.json.id}`, { token })).json).toMatchObject({
      webhook_enabled: true,
      webhook_failures: 0,
    });
    await t.request("PATCH", `/api/links/${c.json.id}`, { token, body: { webhook_url: null } });
    expect((await t.request("GET", `/api/links/${c.json.id}`, { token })).json).toMatchObject({
      webhook_url: null,
      webhook_enabled: false,
    });
    const nothing = await t.request("PATCH", `/api/links/${c.json.id}`, { token, body: { webhook_enabled: true } });
    expect(nothing.status).toBe(400);
    expect(nothing.json.details[0].field).toBe("webhook_enabled");
  });
});

describe("targets that do not lead where they read", () => {
  test("loopback hosts, a user name before the host and backslashes are 400 on every visitor target", async () => {
    const t = createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: "false" } });
    try {
      const { token } = await t.telegramUser();
      const cases: [string, string][] = [
        ["http://localhost:8080/", "localhost"],
        ["http://[::1]/", "loopback"],
        ["http://[::ffff:127.0.0.1]/", "loopback"],
        ["http://127.0.0.2/x", "loopback"],
        ["http://2130706433/", "loopback"],
        ["https://paypal.com@evil.example/", "user name"],
        ["https://user:pw@evil.example/", "user name"],
        ["https://evil.example\\@paypal.com/", "backslash"],
      ];
      for (const [url, word] of cases) {
        const res = await t.request("POST", "/api/links", { token, body: { url } });
        expect([url, res.status, res.json.details?.[0]?.field]).toEqual([url, 400, "url"]);
        expect(res.json.details[0].message).toContain(word);
        const other = await t.request("POST", "/api/links", { token, body: { url: "https://ok.example/", ios_url: url } });
        expect([url, other.status, other.json.details?.[0]?.field]).toEqual([url, 400, "ios_url"]);
        const rule = await t.request("POST", "/api/links", {
          token,
          body: { url: "https://ok.example/", rules: [{ if: { country: ["DE"] }, url }] },
        });
        expect([url, rule.status]).toEqual([url, 400]);
      }
      expect((await t.request("GET", "/api/links", { token })).json).toEqual([]);
    } finally {
      t.close();
    }
  });
});
