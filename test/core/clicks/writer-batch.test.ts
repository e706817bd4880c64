import { expect, test } from "bun:test";
import { eachWithUser } from "../../helpers/app";
import { INSERT_CHUNK } from "../../../core/clicks/writer";
import { CLICK_LISTENERS } from "../../../app/click-listeners";
import type { ClickListener } from "../../../core/clicks/listeners";
import { createTestSink } from "../../helpers/clicks";
import { clicks } from "../../../db/schema";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";

const s = eachWithUser();

const newLink = async () =>
  (await s.t.request("POST", "/api/links", { token: s.token, body: { url: "https://ok.example/" } })).json as { id: number };

test("a batch written several rows per INSERT gives every click the id of its own stored row, grouped by link in the order they came", async () => {
  const a = await newLink();
  const gone = await newLink();
  const b = await newLink();
  const listeners = [...CLICK_LISTENERS];
  const recorder = createTestSink(s.t.deps, listeners);
  // rows already in the table, so the batch's ids do not start at 1
  recorder.record({
    linkId: a.id,
    clickedAt: s.t.clock.now(),
    ip: "198.51.100.1",
    userAgent: CHROME,
    referer: null,
    isBot: false,
    botName: null,
  });
  expect(await recorder.flush()).toBe(1);

  const seen: { id: number; ip: string | null; linkId: number; isUnique: boolean }[] = [];
  const hook: ClickListener = (batch) => {
    seen.push(...batch.map(({ click }) => ({ id: click.id, ip: click.ip, linkId: click.linkId, isUnique: click.isUnique })));
    return [];
  };
  listeners.push(hook);
  {
    const n = INSERT_CHUNK * 2 + 7; // two full statements and a shorter one
    for (let i = 0; i < n; i++) {
      // every third click is for a link deleted before the flush (dropped), every fifth one repeats a visitor
      const linkId = i % 3 === 0 ? gone.id : i % 2 ? a.id : b.id;
      const ip = i % 5 === 0 ? "203.0.113.9" : `192.0.2.${i % 250}`;
      recorder.record({
        linkId,
        clickedAt: s.t.clock.now(),
        ip,
        userAgent: CHROME,
        referer: `https://ref.example/${i}`,
        isBot: i % 7 === 0,
        botName: i % 7 === 0 ? "curl" : null,
      });
    }
    await s.t.request("DELETE", `/api/links/${gone.id}`, { token: s.token });
    const kept = Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 !== 0).length;
    expect(await recorder.flush()).toBe(n);

    const stored = s.t.deps.db.select().from(clicks).all();
    expect(stored).toHaveLength(kept + 1);
    expect(seen).toHaveLength(kept);
    const byId = new Map(stored.map((r) => [r.id, r]));
    for (const s of seen) {
      const row = byId.get(s.id)!;
      expect(row).toBeDefined();
      expect({ ip: row.ip, linkId: row.linkId, isUnique: row.isUnique }).toEqual({ ip: s.ip, linkId: s.linkId, isUnique: s.isUnique });
    }
    // stored grouped by link (the links in the order they first came: a, then b), each link's
    // clicks in the order they came, and ids in that order
    expect([...new Set(seen.map((s) => s.linkId))]).toEqual([a.id, b.id]);
    expect(seen.map((s) => s.linkId)).toEqual(
      [...seen.filter((s) => s.linkId === a.id), ...seen.filter((s) => s.linkId === b.id)].map((s) => s.linkId),
    );
    expect(seen.map((s) => s.id)).toEqual([...seen.map((s) => s.id)].sort((x, y) => x - y));
    for (const link of [a.id, b.id]) {
      // each referer names its click's position in the batch
      const order = seen.filter((s) => s.linkId === link).map((s) => Number(byId.get(s.id)!.referer!.split("/").pop()));
      expect(order.length).toBeGreaterThan(INSERT_CHUNK / 2);
      expect(order).toEqual([...order].sort((x, y) => x - y));
    }
    expect(new Set(seen.map((s) => s.id)).size).toBe(kept);
  }
});

test("a statement names only the columns its rows set: chunks with and without sub parameters, rules and referers store each click as recorded", async () => {
  const a = await newLink();
  const recorder = createTestSink(s.t.deps, [...CLICK_LISTENERS]);
  const n = INSERT_CHUNK * 3;
  // the first chunk sets none of the nullable columns, the second some of them on one row only, the third on every row
  const full = (i: number) => (i < INSERT_CHUNK ? false : i < 2 * INSERT_CHUNK ? i === INSERT_CHUNK + 5 : true);
  for (let i = 0; i < n; i++)
    recorder.record({
      linkId: a.id,
      clickedAt: s.t.clock.now(),
      ip: full(i) ? `192.0.2.${i}` : null,
      userAgent: full(i) ? CHROME : null,
      referer: full(i) ? `https://ref.example/${i}` : null,
      isBot: false,
      botName: null,
      rule: full(i) ? 1 : null,
      variant: full(i) ? 0 : null,
      params: full(i) ? `s1-${i}\n\n\n\ns5\nfb${i}` : null,
    });
  expect(await recorder.flush()).toBe(n);
  const stored = s.t.deps.db.select().from(clicks).orderBy(clicks.id).all();
  expect(stored).toHaveLength(n);
  stored.forEach((row, i) => {
    const set = full(i);
    expect({
      ip: row.ip,
      referer: row.referer,
      rule: row.rule,
      variant: row.variant,
      sub1: row.sub1,
      sub4: row.sub4,
      sub5: row.sub5,
      fbclid: row.fbclid,
      hasUa: row.uaId !== null,
    }).toEqual({
      ip: set ? `192.0.2.${i}` : null,
      referer: set ? `https://ref.example/${i}` : null,
      rule: set ? 1 : null,
      variant: set ? 0 : null,
      sub1: set ? `s1-${i}` : null,
      sub4: null,
      sub5: set ? "s5" : null,
      fbclid: set ? `fb${i}` : null,
      hasUa: set,
    });
    expect([row.isBot, row.isUnique === (i === 0 || set)]).toEqual([false, true]);
  });
});
