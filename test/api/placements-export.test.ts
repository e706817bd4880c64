/**
 * POST /api/placements/export: the Ads table goes to the user's Telegram chat as CSV or XLSX, the
 * same rows as the bot's /ads; read:links is enough; a format other than csv or xlsx is a 400.
 */
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { startBotApp } from "../bot/helpers";
import { eventually } from "../helpers/eventually";
import { placementsFixture } from "../helpers/placements-fixture";

setDefaultTimeout(60_000); // a busy machine: the fake Bot API and, on PostgreSQL, a server

let s: Awaited<ReturnType<typeof startBotApp>>;
beforeEach(async () => {
  s = await startBotApp({});
});
afterEach(() => s.stop());

test("the table is sent to the chat as CSV, in the order asked; a bad format is a 400 naming the field", async () => {
  const { user, token } = await s.t.telegramUser(42, "alice");
  await placementsFixture(s.t.deps, user);
  const res = await s.t.request("POST", "/api/placements/export", { token, body: { format: "csv", period: "30d", sort: "joins" } });
  expect(res.status).toBe(200);
  expect(res.json).toMatchObject({ ok: true, rows: 2 });
  const doc = await eventually(() => s.fake.calls.find((c) => c.method === "sendDocument"), "the table sent to the chat");
  expect(doc.params.chat_id).toBe(42);
  const csv = new TextDecoder()
    .decode(doc.files.document!.bytes)
    .replace(/^\uFEFF/, "")
    .split("\r\n");
  expect(csv[1]).toStartWith("Big channel,t.me/bigchannel,");
  expect(csv[2]).toStartWith("Cheap ads,t.me/cheapads,");
  const bad = await s.t.request("POST", "/api/placements/export", { token, body: { format: "pdf" } });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.json)).toContain("format");
});
