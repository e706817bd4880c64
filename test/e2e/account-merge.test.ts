/**
 * Account merge across features: a Telegram user with links, a secure folder (file and share link)
 * and a tracker links an email that already has its own account with links. Afterwards one account
 * owns everything, one token sees it all through the API, and every feature keeps working for it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { useHarness, eventually } from "./harness";
import { SmtpSink } from "../helpers/smtp-sink";
import { FAKE_BOT } from "../helpers/fake-bot-api";
import { signatureMatches } from "../helpers/webhook-fixtures";

let sink: SmtpSink;
beforeAll(async () => (sink = await new SmtpSink().start()));
afterAll(() => sink.stop());
const h = useHarness(() => ({ SMTP_URL: sink.url }));
const EMAIL = `merge-${Date.now()}@example.com`;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const unix = () => Math.floor(Date.now() / 1000);

async function ok(p: Promise<{ status: number; json: any }>, status = 201) {
  const r = await p;
  expect(r.status).toBe(status);
  return r.json;
}

test("a Telegram account links an email that has its own account: everything is one account's, through one token", async () => {
  // the email account, signed in with a mailed code over HTTP, with two links and a tag
  await ok(h.api("POST", "/api/auth/email/send-otp", { body: { email: EMAIL } }), 200);
  const signedIn = await ok(
    h.api("POST", "/api/auth/email/verify-otp", { body: { email: EMAIL, code: await sink.codeFor(EMAIL, 1) } }),
    200,
  );
  const mail = signedIn.access_token as string;
  const tag = await ok(h.api("POST", "/api/tags", { token: mail, body: { name: "newsletter" } }));
  const mailLink = await ok(
    h.api("POST", "/api/links", { token: mail, body: { url: "https://example.com/from-email", title: "From email", tagIds: [tag.id] } }),
  );
  await ok(h.api("POST", "/api/links", { token: mail, body: { url: "https://example.com/second-email" } }));

  // the Telegram account: a link from the bot, one from the API, a secure note with a share link, a tracker
  const { user: tgUser, token } = await h.t.telegramUser(42, "alice");
  h.fake.pushMessage("https://example.com/from-the-bot");
  await eventually(async () => (await h.api("GET", "/api/links", { token })).json.length === 1, "the bot's link");
  await ok(h.api("POST", "/api/links", { token, body: { url: "https://example.com/from-api" } }));
  const folder = await ok(h.api("POST", "/api/secure/folders", { token, body: { name: "Private", description: "notes" } }));
  const file = await ok(
    h.api("POST", "/api/secure/files", {
      token,
      body: { folderId: folder.id, name: "Door code", description: "", contentType: "text", textContent: "4711\nsecond line" },
    }),
  );
  const share = await ok(h.api("POST", "/api/secure/links", { token, body: { fileId: file.id, expiresInHours: 24, maxViews: 5 } }));
  const tracker = await ok(h.api("POST", "/api/tracking", { token, body: { name: "Launches", keyword: "launch" } }));

  // link the email: a code is mailed, verifying it merges the email account in
  await ok(h.api("POST", "/api/auth/email/send-link-otp", { token, body: { email: EMAIL } }), 200);
  const linked = await ok(
    h.api("POST", "/api/auth/email/verify-link-otp", { token, body: { email: EMAIL, code: await sink.codeFor(EMAIL, 2) } }),
    200,
  );
  expect(linked).toMatchObject({ success: true, merged: true, user: { id: tgUser.id } });

  // one token sees everything
  const links = await ok(h.api("GET", "/api/links", { token }), 200);
  expect(links.map((l: any) => l.original_url).sort()).toEqual([
    "https://example.com/from-api",
    "https://example.com/from-email",
    "https://example.com/from-the-bot",
    "https://example.com/second-email",
  ]);
  const tagged = await ok(h.api("GET", `/api/links?tags=${tag.id}`, { token }), 200);
  expect(tagged.map((l: any) => l.id)).toEqual([mailLink.id]);
  expect((await ok(h.api("GET", "/api/tags", { token }), 200)).map((x: any) => x.name)).toEqual(["newsletter"]);
  expect((await ok(h.api("GET", "/api/secure/folders", { token }), 200)).map((f: any) => f.id)).toEqual([folder.id]);
  expect((await ok(h.api("GET", `/api/secure/links?fileId=${file.id}`, { token }), 200)).map((l: any) => l.url)).toEqual([share.url]);
  expect((await ok(h.api("GET", "/api/tracking", { token }), 200)).map((x: any) => x.id)).toEqual([tracker.id]);
  const me = await ok(h.api("GET", "/api/auth/me", { token }), 200);
  expect(me.user.id).toBe(tgUser.id);
  expect(me.identities.map((i: any) => i.provider).sort()).toEqual(["email", "telegram"]);

  // signing in by email now lands in the same account
  await ok(h.api("POST", "/api/auth/email/send-otp", { body: { email: EMAIL } }), 200);
  const again = await ok(h.api("POST", "/api/auth/email/verify-otp", { body: { email: EMAIL, code: await sink.codeFor(EMAIL, 3) } }), 200);
  expect(again.user.id).toBe(tgUser.id);
  expect(await ok(h.api("GET", "/api/links", { token: again.access_token }), 200)).toHaveLength(4);

  // the features keep working for the merged account: a click on the email account's link shows in
  // its stats, the share link opens, and a keyword match notifies the Telegram chat
  expect((await fetch(`${h.base}/${mailLink.code}`, { redirect: "manual" })).status).toBe(302);
  await h.t.deps.clicks.flush();
  expect((await ok(h.api("GET", `/api/links/${mailLink.id}/stats`, { token }), 200)).totalClicks).toBe(1);
  const view = await ok(h.api("GET", `/api/secure/view/${share.url.split("/").pop()}`, { headers: { "user-agent": BROWSER } }), 200);
  expect(view.lines).toEqual(["4711", "second line"]);
  const channel = { id: -100555, type: "channel", title: "Space", username: "space" };
  h.fake.pushUpdate({
    my_chat_member: {
      chat: channel,
      from: { id: 7, is_bot: false, first_name: "O" },
      date: unix(),
      old_chat_member: { status: "left", user: FAKE_BOT },
      new_chat_member: { status: "member", user: FAKE_BOT },
    },
  });
  await h.fake.waitFor("getChatMemberCount");
  h.fake.pushUpdate({ channel_post: { message_id: 3, date: unix(), chat: channel, text: "The launch is at noon" } });
  await eventually(async () => (await h.api("GET", `/api/tracking/${tracker.id}/matches`, { token })).json.total === 1, "the match");
  await h.drain();
  const note = h.fake.callsOf("sendMessage").find((c) => String(c.params.text).startsWith("🔔"));
  expect(note?.params.chat_id).toBe(42);
});

test("the merged-in account's click webhooks stay verifiable: its signing secret moves when the survivor has none", async () => {
  const email = `secret-${Date.now()}@example.com`;
  await ok(h.api("POST", "/api/auth/email/send-otp", { body: { email } }), 200);
  const mail = (await ok(h.api("POST", "/api/auth/email/verify-otp", { body: { email, code: await sink.codeFor(email, 1) } }), 200))
    .access_token as string;
  const link = await ok(
    h.api("POST", "/api/links", { token: mail, body: { url: "https://example.com/hooked", webhook_url: `${h.rx.url}/hook` } }),
  );
  const { json: before } = await h.api("GET", "/api/webhooks/secret", { token: mail });

  const { token } = await h.t.telegramUser(42, "alice");
  await ok(h.api("POST", "/api/auth/email/send-link-otp", { token, body: { email } }), 200);
  expect(
    await ok(h.api("POST", "/api/auth/email/verify-link-otp", { token, body: { email, code: await sink.codeFor(email, 2) } }), 200),
  ).toMatchObject({ merged: true });

  // the receiver was set up with the email account's secret; it still verifies the deliveries
  const { json: after } = await h.api("GET", "/api/webhooks/secret", { token });
  expect(after.secret).toBe(before.secret);
  expect((await fetch(`${h.base}/${link.code}`, { redirect: "manual", headers: { "user-agent": BROWSER } })).status).toBe(302);
  await h.t.deps.clicks.flush();
  await h.drain();
  const [event] = h.rx.received.filter((r) => r.headers["x-webhook-event"] === "click");
  expect(signatureMatches(before.secret, event!.headers, event!.body)).toBe(true);
});

test("when both accounts have a signing secret, the surviving account keeps its own", async () => {
  const email = `both-${Date.now()}@example.com`;
  await ok(h.api("POST", "/api/auth/email/send-otp", { body: { email } }), 200);
  const mail = (await ok(h.api("POST", "/api/auth/email/verify-otp", { body: { email, code: await sink.codeFor(email, 1) } }), 200))
    .access_token as string;
  const { json: theirs } = await h.api("GET", "/api/webhooks/secret", { token: mail });
  const { token } = await h.t.telegramUser(42, "alice");
  const { json: mine } = await h.api("GET", "/api/webhooks/secret", { token });
  expect(mine.secret).not.toBe(theirs.secret);
  await ok(h.api("POST", "/api/auth/email/send-link-otp", { token, body: { email } }), 200);
  await ok(h.api("POST", "/api/auth/email/verify-link-otp", { token, body: { email, code: await sink.codeFor(email, 2) } }), 200);
  expect((await h.api("GET", "/api/webhooks/secret", { token })).json).toEqual(mine);
});

test("tags of the same name (any case) fold into the surviving account's tag, with the links of both", async () => {
  const email = `tags-${Date.now()}@example.com`;
  await ok(h.api("POST", "/api/auth/email/send-otp", { body: { email } }), 200);
  const mail = (await ok(h.api("POST", "/api/auth/email/verify-otp", { body: { email, code: await sink.codeFor(email, 1) } }), 200))
    .access_token as string;
  const theirTag = await ok(h.api("POST", "/api/tags", { token: mail, body: { name: "newsletter" } }));
  const theirOnly = await ok(h.api("POST", "/api/tags", { token: mail, body: { name: "promo" } }));
  const theirs = await ok(
    h.api("POST", "/api/links", { token: mail, body: { url: "https://example.com/theirs", tagIds: [theirTag.id, theirOnly.id] } }),
  );

  const { token } = await h.t.telegramUser(42, "alice");
  const myTag = await ok(h.api("POST", "/api/tags", { token, body: { name: "Newsletter" } }));
  const mine = await ok(h.api("POST", "/api/links", { token, body: { url: "https://example.com/mine", tagIds: [myTag.id] } }));
  await ok(h.api("POST", "/api/auth/email/send-link-otp", { token, body: { email } }), 200);
  await ok(h.api("POST", "/api/auth/email/verify-link-otp", { token, body: { email, code: await sink.codeFor(email, 2) } }), 200);

  const tags = await ok(h.api("GET", "/api/tags", { token }), 200);
  expect(tags.map((x: any) => [x.id, x.name])).toEqual([
    [myTag.id, "Newsletter"],
    [theirOnly.id, "promo"],
  ]);
  const tagged = await ok(h.api("GET", `/api/links?tags=${myTag.id}`, { token }), 200);
  expect(tagged.map((l: any) => l.id).sort()).toEqual([mine.id, theirs.id].sort());
  expect((await ok(h.api("GET", `/api/links/${theirs.id}`, { token }), 200)).tagIds.sort()).toEqual([myTag.id, theirOnly.id].sort());
  // the name stays unique in the merged account
  expect((await h.api("POST", "/api/tags", { token, body: { name: "NEWSLETTER" } })).status).toBe(409);
});
