/**
 * The whole link story over real HTTP: a URL pasted to the bot becomes a tracking link, the link gets
 * a webhook by PATCH, visitors follow the short URL, the clicks are written, the receiver gets the
 * signed click webhooks, the API shows the stats and the bot's Stats button answers with the counts.
 */
import { expect, test } from "bun:test";
import { useHarness, eventually } from "./harness";
import { signatureMatches } from "../helpers/webhook-fixtures";

const h = useHarness();
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

test("paste a URL to the bot → webhook by PATCH → visits → signed click webhooks → API stats → the bot's Stats button", async () => {
  const { token } = await h.t.telegramUser(42, "alice");

  // 1. the bot turns a pasted URL into a tracking link
  h.fake.pushMessage("https://example.com/spring-sale?ref=tg");
  const reply = await h.fake.waitFor("sendMessage", (c) => c.params.chat_id === 42 && String(c.params.text).includes("/"));
  const { json: list } = await h.api("GET", "/api/links", { token });
  const links: any[] = list;
  expect(links).toHaveLength(1);
  const link = links[0];
  expect(link.original_url).toBe("https://example.com/spring-sale?ref=tg");
  expect(link.trackingUrl).toEndWith(`/${link.code}`);
  expect(reply.params.text).toContain(link.trackingUrl);

  // 2. the webhook is added by PATCH; the receiver is asked first (validation), then it is saved
  const hook = `${h.rx.url}/clicks`;
  const patched = await h.api("PATCH", `/api/links/${link.id}`, { token, body: { webhook_url: hook } });
  expect(patched.status).toBe(200);
  expect(patched.json).toEqual({
    id: link.id,
    code: link.code,
    trackingUrl: link.trackingUrl,
    original_url: link.original_url,
    title: link.title,
  });
  expect(h.rx.received.map((r) => [r.path, r.headers["x-webhook-event"]])).toEqual([["/clicks", "validation"]]);
  // a target that refuses the validation is not saved
  h.rx.respond = (r) => (r.path === "/refuses" ? 500 : 200);
  const refused = await h.api("PATCH", `/api/links/${link.id}`, { token, body: { webhook_url: `${h.rx.url}/refuses` } });
  expect(refused.status).toBe(400);
  expect(refused.json.error).toBe("validation_error");
  const { json: got } = await h.api("GET", `/api/links/${link.id}`, { token });
  expect(got).toMatchObject({ webhook_url: hook, webhook_method: "POST", webhook_enabled: true, webhook_failures: 0 });

  // 3. a visitor and a link-preview bot follow the short URL over real HTTP
  const visit = await fetch(`${h.base}/${link.code}`, { redirect: "manual", headers: { "user-agent": IPHONE, referer: "https://t.me/" } });
  expect(visit.status).toBe(302);
  expect(visit.headers.get("location")).toStartWith("https://example.com/spring-sale?ref=tg");
  expect(visit.headers.get("cache-control")).toContain("no-store");
  const preview = await fetch(`${h.base}/${link.code}`, { redirect: "manual", headers: { "user-agent": "TelegramBot (like TwitterBot)" } });
  expect(preview.status).toBe(302);

  // 4. the pending clicks are written; their webhooks are queued and sent
  expect(await h.t.deps.clicks.flush()).toBe(2);
  await h.drain();
  const { json: secret } = await h.api("GET", "/api/webhooks/secret", { token });
  const events = h.rx.received.filter((r) => r.headers["x-webhook-event"] === "click");
  expect(events).toHaveLength(2);
  const bodies = events.map((e) => JSON.parse(e.body));
  for (const e of events) {
    expect(e.path).toBe("/clicks");
    expect(e.method).toBe("POST");
    expect(signatureMatches(secret.secret, e.headers, e.body)).toBe(true);
  }
  const human = bodies.find((b) => !b.click.is_bot);
  expect(human).toEqual({
    event: "click",
    link: { id: link.id, code: link.code, original_url: "https://example.com/spring-sale?ref=tg", title: link.title },
    click: {
      ip: "127.0.0.1",
      country: null,
      city: null,
      device_type: "mobile",
      os: "iOS",
      browser: expect.stringContaining("Safari"),
      referer: "https://t.me/",
      is_bot: false,
      is_unique: true,
      clicked_at: h.t.clock.now().toISOString(),
    },
  });
  expect(Object.keys(human.click).sort()).toEqual([
    "browser",
    "city",
    "clicked_at",
    "country",
    "device_type",
    "ip",
    "is_bot",
    "is_unique",
    "os",
    "referer",
  ]);
  expect(bodies.find((b) => b.click.is_bot)?.click).toMatchObject({ is_bot: true, referer: null });

  // 5. the API shows them
  const stats = await h.api("GET", `/api/links/${link.id}/stats`, { token });
  expect(stats.status).toBe(200);
  expect(stats.json).toMatchObject({ totalClicks: 2, uniqueClicks: 1, botClicks: 1 });

  // 6. the card's Stats button answers with the same counts
  // (the card pasted at first is outdated by now: its link has a webhook row; open it afresh)
  h.fake.pushMessage(`/start link_${link.id}`);
  await h.fake.waitFor("sendMessage", (c) => String(c.params.text).includes("🔔 Webhook POST"));
  h.fake.press("📊 Stats");
  const answer = await h.fake.waitFor("editMessageText", (c) => String(c.params.text).startsWith("📊"));
  expect(answer.params.text).toContain("Clicks: 2");
  expect(answer.params.text).toContain("Unique: 1");
  expect(answer.params.text).toContain("Bots: 1");
  expect(answer.params.text).toContain(link.trackingUrl);
  await eventually(() => h.fake.callsOf("answerCallbackQuery").length > 0, "the callback answer");
});
