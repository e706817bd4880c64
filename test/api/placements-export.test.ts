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

test("the file keeps the table's order: amounts compared within a currency (the account's first), and the direction asked", async () => {
  const { token } = await s.t.telegramUser(42, "alice");
  expect((await s.t.request("PATCH", "/api/settings", { token, body: { currency: "RUB" } })).status).toBe(200);
  // 500 ₽ per 1,000 views against $10 per 1,000 views: not comparable without a rate, so roubles first
  for (const [name, cost, views] of [
    ["Rouble ad", "10000 RUB", 20_000],
    ["Dollar ad", "$200", 20_000],
    ["Cheap rouble ad", "1000 RUB", 20_000],
  ] as const) {
    const p = await s.t.request("POST", "/api/placements", {
      token,
      body: { venue: `@${name.replaceAll(" ", "_").toLowerCase()}`, name, cost },
    });
    expect(p.status).toBe(201);
    expect((await s.t.request("PATCH", `/api/placements/${p.json.id}`, { token, body: { views } })).status).toBe(200);
  }
  const names = async (body: Record<string, string>) => {
    s.fake.calls.length = 0;
    const res = await s.t.request("POST", "/api/placements/export", { token, body: { format: "csv", period: "all", ...body } });
    expect(res.status).toBe(200);
    const doc = await eventually(() => s.fake.calls.find((c) => c.method === "sendDocument"), "the table sent to the chat");
    return new TextDecoder()
      .decode(doc.files.document!.bytes)
      .replace(/^\uFEFF/, "")
      .split("\r\n")
      .slice(1, -1)
      .map((line) => line.split(",")[0]);
  };
  const listed = async (query: string) =>
    (await s.t.request("GET", `/api/placements?period=all&${query}`, { token })).json.map((p: { name: string }) => p.name);
  expect(await listed("sort=cpm&order=asc")).toEqual(["Cheap rouble ad", "Rouble ad", "Dollar ad"]);
  expect(await names({ sort: "cpm" })).toEqual(["Cheap rouble ad", "Rouble ad", "Dollar ad"]);
  expect(await names({ sort: "cpm", order: "desc" })).toEqual(await listed("sort=cpm&order=desc"));
  expect(await names({ sort: "name", order: "asc" })).toEqual(["Cheap rouble ad", "Dollar ad", "Rouble ad"]);
  expect(await names({ sort: "name", order: "desc" })).toEqual(["Rouble ad", "Dollar ad", "Cheap rouble ad"]);
  const bad = await s.t.request("POST", "/api/placements/export", { token, body: { format: "csv", order: "up" } });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.json)).toContain("order");
});
