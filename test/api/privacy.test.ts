import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { eq } from "drizzle-orm";
import { createTestApp, type TestApp } from "../helpers/app";
import { FakeBotApi, FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { WebhookReceiver } from "../helpers/webhook-receiver";
import { insertLink } from "../helpers/clicks";
import { deliveryWorker } from "../../app/delivery-routes";
import { truncateIp } from "../../core/redirect/privacy";
import { ConfigError, loadConfig } from "../../config";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0";
/** two visitors in one /24 in Berlin, and one IPv6 visitor */
const A = "81.169.145.1";
const B = "81.169.145.77";
const V6 = "2a01:4f8:1234:5678::1";

let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

async function setUp(privacy: string) {
  const fake = new FakeBotApi().start();
  const rx = new WebhookReceiver().start();
  const t = createTestApp({ env: { PRIVACY_IP: privacy, TRUST_PROXY: "true", BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } });
  cleanup.push(
    () => fake.stop(),
    () => rx.stop(),
    () => t.close(),
  );
  const { user, token } = await t.telegramUser();
  const link = await insertLink(t.deps, user.id, { webhookUrl: `${rx.url}/hook`, webhookEnabled: true });
  const go = async (ip: string, ua = CHROME) =>
    expect((await t.request("GET", `/${link.code}`, { headers: { "x-forwarded-for": ip, "user-agent": ua } })).status).toBe(302);
  // the same visitor twice, a neighbour in the same /24, the first address with another browser, an IPv6 visitor
  for (const [ip, ua] of [
    [A, CHROME],
    [A, CHROME],
    [B, CHROME],
    [A, FIREFOX],
    [V6, CHROME],
  ] as const)
    await go(ip, ua);
  await t.deps.clicks.flush();
  await deliveryWorker(t.deps).drain();
  return { t, fake, rx, token, link, go };
}

/** Every byte of the database files (main file and WAL) as text, to look for an address anywhere. */
function databaseText(t: TestApp): string {
  t.deps.handle.sqlite.exec("PRAGMA wal_checkpoint(FULL)");
  return readdirSync(t.dataDir)
    .filter((f) => f.includes(".db") || f.includes("sqlite"))
    .map((f) => readFileSync(join(t.dataDir, f)).toString("latin1"))
    .join("");
}

async function exportedIps(t: TestApp, fake: FakeBotApi, token: string, linkId: number): Promise<string[]> {
  const res = await t.request("POST", `/api/links/${linkId}/export`, { token, body: { format: "csv" } });
  expect(res.json.ok).toBe(true);
  const file = Object.values(fake.callsOf("sendDocument").at(-1)!.files)[0]!;
  const lines = new TextDecoder()
    .decode(file.bytes)
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n")
    .slice(1);
  return lines.map((l) => l.split(",")[1]!);
}

describe("PRIVACY_IP=truncate", () => {
  test("stores IPv4 /24 and IPv6 /48 only, everywhere; uniques, geo and counts stay right", async () => {
    const { t, fake, rx, token, link } = await setUp("truncate");
    const rows = await t.deps.asyncDb
      .select()
      .from(t.deps.asyncDb.tables.clicks)
      .where(eq(t.deps.asyncDb.tables.clicks.linkId, link.id))
      .orderBy(t.deps.asyncDb.tables.clicks.id);
    expect(rows.map((c) => c.ip)).toEqual(["81.169.145.0", "81.169.145.0", "81.169.145.0", "81.169.145.0", "2a01:4f8:1234::"]);
    expect(rows.map((c) => c.isUnique)).toEqual([true, false, true, true, true]);
    expect(rows.map((c) => c.country)).toEqual(["DE", "DE", "DE", "DE", "DE"]);
    expect(rows[0]!.city).toStartWith("Berlin");
    const stats = (await t.request("GET", `/api/links/${link.id}/stats`, { token })).json;
    expect([stats.totalClicks, stats.uniqueClicks]).toEqual([5, 4]);
    const list = (await t.request("GET", `/api/links/${link.id}/clicks`, { token })).json.data.map((c: { ip: string }) => c.ip);
    expect(list).toEqual(["2a01:4f8:1234::", "81.169.145.0", "81.169.145.0", "81.169.145.0", "81.169.145.0"]);
    expect((await exportedIps(t, fake, token, link.id)).sort()).toEqual([
      "2a01:4f8:1234::",
      "81.169.145.0",
      "81.169.145.0",
      "81.169.145.0",
      "81.169.145.0",
    ]);
    expect(rx.received.map((r) => JSON.parse(r.body).click.ip).sort()).toEqual([
      "2a01:4f8:1234::",
      "81.169.145.0",
      "81.169.145.0",
      "81.169.145.0",
      "81.169.145.0",
    ]);
    const db = databaseText(t);
    expect(db.includes("81.169.145.0")).toBe(true); // what is stored is found there
    for (const full of [A, B, "2a01:4f8:1234:5678", "2a01:04f8:1234:5678"]) expect(db.includes(full)).toBe(false);
  });
});

describe("PRIVACY_IP=none", () => {
  test("stores no address at all; uniques come from the day's keyed hash; geo is kept", async () => {
    const { t, fake, rx, token, link, go } = await setUp("none");
    const rows = await t.deps.asyncDb
      .select()
      .from(t.deps.asyncDb.tables.clicks)
      .where(eq(t.deps.asyncDb.tables.clicks.linkId, link.id))
      .orderBy(t.deps.asyncDb.tables.clicks.id);
    expect(rows.map((c) => c.ip)).toEqual([null, null, null, null, null]);
    expect(rows.map((c) => c.isUnique)).toEqual([true, false, true, true, true]);
    expect(rows.map((c) => c.country)).toEqual(["DE", "DE", "DE", "DE", "DE"]);
    expect((await t.request("GET", `/api/links/${link.id}/stats`, { token })).json.uniqueClicks).toBe(4);
    expect((await t.request("GET", `/api/links/${link.id}/clicks`, { token })).json.data.map((c: { ip: null }) => c.ip)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(await exportedIps(t, fake, token, link.id)).toEqual(["", "", "", "", ""]);
    const hooks = rx.received.map((r) => JSON.parse(r.body).click);
    expect(hooks.map((c) => c.ip)).toEqual([null, null, null, null, null]);
    expect(hooks[0].country).toBe("DE");
    const db = databaseText(t);
    expect(db.includes(link.code)).toBe(true);
    for (const part of ["81.169.145", "2a01:4f8"]) expect(db.includes(part)).toBe(false);

    // the key changes with the day: the same visitor gets another hash, so nothing links the days
    const visitorsBefore = (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.clickVisitors)).map((v) => v.visitorHash);
    expect(visitorsBefore).toHaveLength(4);
    t.clock.advance(25 * 3_600_000);
    await go(A);
    await go(A);
    await t.deps.clicks.flush();
    const visitorsAfter = (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.clickVisitors)).map((v) => v.visitorHash);
    expect(visitorsAfter).toHaveLength(5);
    expect(visitorsAfter.filter((h) => !visitorsBefore.includes(h))).toHaveLength(1);
    expect((await t.request("GET", `/api/links/${link.id}/stats?period=all`, { token })).json).toMatchObject({
      totalClicks: 7,
      uniqueClicks: 5,
    });
  });
});

describe("PRIVACY_IP=full (the default) and the setting itself", () => {
  test("full keeps the address as received", async () => {
    const { t, link } = await setUp("full");
    expect(
      (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.clicks).where(eq(t.deps.asyncDb.tables.clicks.linkId, link.id))).map(
        (c) => c.ip,
      ),
    ).toEqual([A, A, B, A, V6]);
  });

  test("a bad value stops the start naming the variable", () => {
    const dir = join(tmpdir(), `privacy-${process.pid}`);
    expect(() => loadConfig({ DATA_DIR: dir, PRIVACY_IP: "partial" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, PRIVACY_IP: "partial" })).toThrow(
      'PRIVACY_IP: expected full, truncate or none, got "partial"',
    );
    expect(loadConfig({ DATA_DIR: dir }).privacyIp).toBe("full");
    expect(loadConfig({ DATA_DIR: dir, PRIVACY_IP: "None" }).privacyIp).toBe("none");
  });

  test("truncation of every address form", () => {
    expect(truncateIp("203.0.113.9")).toBe("203.0.113.0");
    expect(truncateIp("::ffff:203.0.113.9")).toBe("203.0.113.0");
    expect(truncateIp("2001:db8:abcd:12::1")).toBe("2001:db8:abcd::");
    expect(truncateIp("2001:DB8::1")).toBe("2001:db8::");
    expect(truncateIp("::1")).toBe("::");
    expect(truncateIp("not an address")).toBeNull();
    expect(truncateIp(null)).toBeNull();
  });
});
