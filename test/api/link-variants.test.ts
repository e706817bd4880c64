import { afterEach, beforeEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../helpers/app";
import { invalidateLinkCache } from "../../core/cluster/caches";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0";
const BOT = "TelegramBot (like TwitterBot)";

let t: TestApp;
let token: string;
beforeEach(async () => {
  t = createTestApp({ env: { TRUST_PROXY: "true" } });
  token = (await t.telegramUser()).token;
});
afterEach(() => t.close());

async function link(body: Record<string, unknown>) {
  const res = await t.request("POST", "/api/links", { token, body });
  expect(res.status).toBe(201);
  return res.json as { id: number; code: string };
}
async function go(code: string, ip: string, ua = CHROME, query = "") {
  const res = await t.request("GET", `/${code}${query}`, { headers: { "user-agent": ua, "x-forwarded-for": ip } });
  expect(res.status).toBe(302);
  return res.headers.get("location")!;
}
async function recorded(linkId: number) {
  await t.deps.clicks.flush();
  const { clicks } = t.deps.asyncDb.tables;
  return t.deps.asyncDb.select().from(clicks).where(eq(clicks.linkId, linkId)).orderBy(clicks.id);
}
const VARIANTS = [
  { url: "https://a.example/", weight: 60 },
  { url: "https://b.example/", weight: 30 },
  { url: "https://c.example/", weight: 10 },
];

test("a visitor keeps their variant: every visit, after the link is read again, and with another query string", async () => {
  const l = await link({ url: "https://default.example/", variants: VARIANTS });
  for (let v = 0; v < 20; v++) {
    const ip = `198.51.100.${v}`;
    const first = await go(l.code, ip);
    expect(VARIANTS.map((x) => x.url)).toContain(first);
    expect(await go(l.code, ip)).toBe(first);
    invalidateLinkCache(t.deps); // as a restart or another node would read it
    expect(await go(l.code, ip, CHROME, "?x=1")).toBe(first);
  }
  const rows = await recorded(l.id);
  for (let i = 0; i < rows.length; i += 3) {
    expect(rows[i + 1]!.variant).toBe(rows[i]!.variant);
    expect(rows[i + 2]!.variant).toBe(rows[i]!.variant);
    expect(VARIANTS[rows[i]!.variant!]!.url).toBe(await go(l.code, rows[i]!.ip!)); // the index recorded is the variant served
  }
  expect(rows.every((c) => c.rule === null)).toBe(true);
});

test("the split follows the weights within 7 points over 600 visitors", async () => {
  const l = await link({ url: "https://default.example/", variants: VARIANTS });
  const got = new Map<string, number>();
  for (let i = 0; i < 600; i++) {
    const url = await go(l.code, `10.${i % 7}.${Math.floor(i / 7) % 250}.${(i * 37) % 250}`, i % 2 ? CHROME : FIREFOX);
    got.set(url, (got.get(url) ?? 0) + 1);
  }
  for (const v of VARIANTS) expect(Math.abs((got.get(v.url) ?? 0) / 600 - v.weight / 100)).toBeLessThan(0.07);
  expect([...got.keys()].sort()).toEqual(VARIANTS.map((v) => v.url));
});

test("rules take their visitors first; the split gets the rest; stats count by rule and by variant", async () => {
  const l = await link({
    url: "https://default.example/",
    rules: [
      { if: { query: { src: "mail" } }, url: "https://mail.example/" },
      { if: { country: ["RU"] }, url: "https://ru.example/" },
    ],
    variants: [
      { url: "https://a.example/", weight: 50 },
      { url: "https://b.example/", weight: 50 },
    ],
  });
  expect(await go(l.code, "8.8.8.8", CHROME, "?src=mail")).toBe("https://mail.example/");
  expect(await go(l.code, "8.8.8.8", CHROME, "?src=mail")).toBe("https://mail.example/");
  expect(await go(l.code, "77.88.55.60")).toBe("https://ru.example/");
  const served: string[] = [];
  for (let i = 0; i < 40; i++) served.push(await go(l.code, `203.0.113.${i}`));
  for (let i = 0; i < 10; i++) served.push(await go(l.code, `203.0.113.${i}`)); // repeat visitors: clicks, not uniques
  served.push(await go(l.code, "203.0.113.99", BOT)); // a bot is split too, and never unique
  const rows = await recorded(l.id);
  expect(rows.map((c) => c.rule).slice(0, 3)).toEqual([0, 0, 1]);
  expect(rows.slice(0, 3).every((c) => c.variant === null)).toBe(true);
  const a = served.filter((u) => u === "https://a.example/").length;
  const aUnique = served.slice(0, 40).filter((u) => u === "https://a.example/").length;
  const botOnA = served[50] === "https://a.example/" ? 1 : 0;
  const stats = (await t.request("GET", `/api/links/${l.id}/stats`, { token })).json;
  expect(stats.totalClicks).toBe(54);
  expect(stats.rules).toEqual([
    { index: 0, clicks: 2 },
    { index: 1, clicks: 1 },
  ]);
  expect(stats.variants).toEqual([
    { index: 0, url: "https://a.example/", clicks: a, uniqueClicks: aUnique, conversions: 0, conversionRate: 0 },
    { index: 1, url: "https://b.example/", clicks: 51 - a, uniqueClicks: 40 - aUnique, conversions: 0, conversionRate: 0 },
  ]);
  expect(a - botOnA).toBeGreaterThan(10); // both variants were served
  expect(51 - a - (1 - botOnA)).toBeGreaterThan(10);
  const list = (await t.request("GET", `/api/links/${l.id}/clicks?limit=100`, { token })).json;
  expect(list.data.at(-1)).toMatchObject({ rule: 0, variant: null, ip: "8.8.8.8" });
  expect(list.data[0]).toMatchObject({ rule: null, variant: served[50] === "https://a.example/" ? 0 : 1, is_bot: true });
});
