import { expect, test } from "bun:test";
import { createDb } from "../../db/client";
import { databaseBefore } from "../helpers/migrations";
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
      const rows = sqlite.query("select c.id, u.ua from clicks c left join user_agents u on u.id = c.ua_id order by c.id").all() as { ua: string | null }[];
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
