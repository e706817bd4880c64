import { expect, test } from "bun:test";
import { createDb } from "../../db/client";
import { databaseBefore } from "../helpers/migrations";
import { referrerHost } from "../../core/analytics/referrer";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

test("an existing database keeps every click's user agent when they move to user_agents", () => {
  const dir = mkdtempSync(join(tmpdir(), "linkbot-migrate-"));
  const path = join(dir, "app.db");
  try {
    const old = databaseBefore("0006_user_agents", path);
    old.exec("insert into users (id, created_at) values (1, 0)");
    old.exec("insert into links (id, user_id, code, url, created_at, updated_at) values (1, 1, 'abc1234', 'https://ok.example/', 0, 0)");
    const agents = ["Mozilla/5.0 Chrome/124.0", "Mozilla/5.0 (iPhone) Safari/604.1", "Mozilla/5.0 Chrome/124.0", null, "curl/8.5.0"];
    const insert = old.prepare("insert into clicks (link_id, clicked_at, ip, user_agent) values (1, ?, '203.0.113.5', ?)");
    agents.forEach((ua, i) => insert.run(1_700_000_000_000 + i, ua));
    old.close();

    const { sqlite, close } = createDb(path);
    try {
      const rows = sqlite.query("select c.id, u.ua from clicks c left join user_agents u on u.id = c.ua_id order by c.id").all() as {
        ua: string | null;
      }[];
      expect(rows.map((r) => r.ua)).toEqual(agents);
      expect((sqlite.query("select count(*) as n from user_agents").get() as { n: number }).n).toBe(3);
      const columns = (sqlite.query("pragma table_info(clicks)").all() as { name: string }[]).map((c) => c.name);
      expect(columns).toContain("ua_id");
      expect(columns).not.toContain("user_agent");
      expect(sqlite.query("pragma foreign_key_check").all()).toEqual([]);
    } finally {
      close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an existing database gets the rule and variant roll-ups of the clicks it already holds", () => {
  const dir = mkdtempSync(join(tmpdir(), "linkbot-migrate-"));
  const path = join(dir, "app.db");
  try {
    const old = databaseBefore("0021_rule_variant_dims", path);
    old.exec("insert into users (id, created_at) values (1, 0)");
    old.exec("insert into links (id, user_id, code, url, created_at, updated_at) values (1, 1, 'abc1234', 'https://ok.example/', 0, 0)");
    const hour = 3_600_000;
    const t0 = 1_700_000_000_000 - (1_700_000_000_000 % (8 * 24 * hour)); // the start of an 8-day block
    const insert = old.prepare("insert into clicks (link_id, clicked_at, is_bot, is_unique, rule, variant) values (1, ?, ?, ?, ?, ?)");
    // [at, bot, unique, rule, variant]
    const clicks: [number, number, number, number | null, number | null][] = [
      [t0 + 10, 0, 1, null, 0],
      [t0 + 20, 0, 0, null, 0],
      [t0 + 30, 1, 0, null, 0],
      [t0 + hour + 5, 0, 1, null, 1],
      [t0 + 25 * hour, 0, 1, 2, null],
      [t0 + 25 * hour + 1, 1, 0, 2, null],
      [t0 + 40, 0, 1, null, null],
    ];
    for (const c of clicks) insert.run(...c);
    old.close();

    const { sqlite, close } = createDb(path);
    try {
      const rows = sqlite
        .query(
          "select span, dim, bucket - ? as at, value, clicks, uniques from link_stats_dim where link_id = 1 and dim in ('rule', 'variant') order by dim, span, bucket, value",
        )
        .all(t0);
      expect(rows).toEqual([
        { span: hour, dim: "rule", at: 25 * hour, value: "2", clicks: 2, uniques: 0 },
        { span: 24 * hour, dim: "rule", at: 24 * hour, value: "2", clicks: 2, uniques: 0 },
        { span: 8 * 24 * hour, dim: "rule", at: 0, value: "2", clicks: 2, uniques: 0 },
        { span: hour, dim: "variant", at: 0, value: "0", clicks: 3, uniques: 1 },
        { span: hour, dim: "variant", at: hour, value: "1", clicks: 1, uniques: 1 },
        { span: 24 * hour, dim: "variant", at: 0, value: "0", clicks: 3, uniques: 1 },
        { span: 24 * hour, dim: "variant", at: 0, value: "1", clicks: 1, uniques: 1 },
        { span: 8 * 24 * hour, dim: "variant", at: 0, value: "0", clicks: 3, uniques: 1 },
        { span: 8 * 24 * hour, dim: "variant", at: 0, value: "1", clicks: 1, uniques: 1 },
      ]);
    } finally {
      close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an existing database gets the referrer roll-ups of the clicks it already holds, as the click writer makes them", () => {
  const dir = mkdtempSync(join(tmpdir(), "linkbot-migrate-"));
  const path = join(dir, "app.db");
  try {
    const old = databaseBefore("0025_referrer_dims", path);
    old.exec("insert into users (id, created_at) values (1, 0)");
    old.exec("insert into links (id, user_id, code, url, created_at, updated_at) values (1, 1, 'abc1234', 'https://ok.example/', 0, 0)");
    const hour = 3_600_000;
    const t0 = 1_700_000_000_000 - (1_700_000_000_000 % (8 * 24 * hour));
    const referers = [
      null,
      "https://t.me/s/news",
      "https://T.ME:443/x",
      "https://www.Example.com/a?b#c",
      "http://vk.com?x=1",
      "no scheme",
      "android-app://org.telegram.messenger/",
    ];
    const insert = old.prepare("insert into clicks (link_id, clicked_at, referer) values (1, ?, ?)");
    referers.forEach((r, i) => insert.run(t0 + i * 1000, r));
    insert.run(t0 + 2 * hour, "https://t.me/");
    old.close();

    const { sqlite, close } = createDb(path);
    try {
      const rows = sqlite
        .query(
          "select span, bucket - ? as at, value, clicks from link_stats_dim where link_id = 1 and dim = 'referrer' and span = ? order by bucket, value",
        )
        .all(t0, hour);
      const firstHour = new Map<string, number>();
      for (const r of referers) firstHour.set(referrerHost(r), (firstHour.get(referrerHost(r)) ?? 0) + 1);
      expect(Object.fromEntries(firstHour)).toEqual({ "": 2, "t.me": 2, "example.com": 1, "vk.com": 1, "org.telegram.messenger": 1 });
      expect(rows).toEqual([
        ...[...firstHour].sort(([a], [b]) => (a < b ? -1 : 1)).map(([value, clicks]) => ({ span: hour, at: 0, value, clicks })),
        { span: hour, at: 2 * hour, value: "t.me", clicks: 1 },
      ]);
      const days = sqlite
        .query("select sum(clicks) as n from link_stats_dim where link_id = 1 and dim = 'referrer' and span = ?")
        .get(24 * hour) as { n: number };
      expect(days.n).toBe(referers.length + 1);
    } finally {
      close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
