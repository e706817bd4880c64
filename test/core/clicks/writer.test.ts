import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { eachWithUser } from "../../helpers/app";
import { CLICK_LISTENERS } from "../../../app/click-listeners";
import { createTestSink } from "../../helpers/clicks";
import { createClickWriter } from "../../../core/clicks/writer";
import { concatPacked, packClicks, unpackClicks, type PendingClick } from "../../../core/clicks/packed";
import { clicks, userAgents } from "../../../db/schema";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

const s = eachWithUser();
const newLink = async () =>
  (await s.t.request("POST", "/api/links", { token: s.token, body: { url: "https://ok.example/" } })).json as { id: number };
const click = (linkId: number, over: Partial<PendingClick> = {}): PendingClick => ({
  linkId,
  clickedAt: s.t.clock.now(),
  ip: "198.51.100.1",
  userAgent: CHROME,
  referer: null,
  isBot: false,
  botName: null,
  ...over,
});
/** each stored click of a link with the text of its user agent */
const agentsOf = (linkId: number) =>
  s.t.deps.db
    .select({ id: clicks.id, ua: userAgents.ua })
    .from(clicks)
    .leftJoin(userAgents, eq(userAgents.id, clicks.uaId))
    .where(eq(clicks.linkId, linkId))
    .orderBy(clicks.id)
    .all()
    .map((r) => r.ua);

test("each distinct user agent is stored once and every click points at its text (none without one); long ones are cut", async () => {
  const l = await newLink();
  const long = `${CHROME} ${"x".repeat(3000)}`;
  const first = createTestSink(s.t.deps);
  for (const ua of [CHROME, IPHONE, CHROME, null, long]) first.record(click(l.id, { userAgent: ua, isBot: ua === null }));
  expect(await first.flush()).toBe(5);
  // a second recorder (as after a restart: nothing cached) finds the stored rows instead of adding new ones
  const second = createTestSink(s.t.deps);
  for (const ua of [IPHONE, CHROME, "curl/8.5.0"]) second.record(click(l.id, { userAgent: ua }));
  expect(await second.flush()).toBe(3);

  expect(agentsOf(l.id)).toEqual([CHROME, IPHONE, CHROME, null, long.slice(0, 1024), IPHONE, CHROME, "curl/8.5.0"]);
  const stored = s.t.deps.db
    .select()
    .from(userAgents)
    .all()
    .map((u) => u.ua)
    .sort();
  expect(stored).toEqual([CHROME, IPHONE, long.slice(0, 1024), "curl/8.5.0"].sort());
});

test("a user agent added in a batch that rolled back is added again on the retry, not taken from memory", async () => {
  const l = await newLink();
  let fail = true;
  const hook = () => {
    if (fail) throw new Error("hook down");
    return [];
  };
  const recorder = createTestSink(s.t.deps, [...CLICK_LISTENERS, hook]);
  recorder.record(click(l.id, { userAgent: "NewAgent/1.0" }));
  await expect(recorder.flush()).rejects.toThrow("hook down");
  expect(s.t.deps.db.select().from(userAgents).where(eq(userAgents.ua, "NewAgent/1.0")).all()).toEqual([]);
  fail = false;
  recorder.record(click(l.id, { userAgent: "NewAgent/1.0" }));
  expect(await recorder.flush()).toBe(2); // the held click and the new one; a remembered id of the rolled-back row would fail the foreign key
  expect(agentsOf(l.id)).toEqual(["NewAgent/1.0", "NewAgent/1.0"]);
});

test("the roll-ups of a mixed batch written by the writer equal what its stored clicks say, dimension by dimension", async () => {
  const a = await newLink();
  const b = await newLink();
  const recorder = createTestSink(s.t.deps);
  const uas = [
    CHROME,
    IPHONE,
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
    null,
  ];
  const ips = ["8.8.8.8", "81.2.69.142", "198.51.100.7", null];
  const t0 = s.t.clock.now().getTime();
  for (let i = 0; i < 600; i++) {
    const ua = uas[i % 4]!;
    const bot = i % 9 === 0;
    recorder.record(
      click(i % 3 ? a.id : b.id, {
        clickedAt: new Date(t0 + i * 30_000), // five hours: many quarter hours and several hours per link
        ip: ips[(i >> 2) % 4]!,
        userAgent: ua,
        isBot: bot || ua === null,
        botName: bot ? (i % 2 ? "TelegramBot" : "Googlebot") : ua === null ? "unknown" : null,
      }),
    );
  }
  expect(await recorder.flush()).toBe(600);

  const db = s.t.deps.db.$client;
  const HOUR = 3_600_000;
  for (const [dim, expr] of [
    ["country", "coalesce(country, '')"],
    ["device", "coalesce(device, '')"],
    ["browser", "coalesce(browser, '')"],
    ["os", "coalesce(os, '')"],
  ] as const) {
    const raw = db
      .query(
        `select link_id, (clicked_at / ${HOUR}) * ${HOUR} as bucket, ${expr} as value, count(*) as n from clicks group by 1, 2, 3 order by 1, 2, 3`,
      )
      .all();
    const rolled = db
      .query(`select link_id, bucket, value, clicks as n from link_stats_dim where span = ${HOUR} and dim = ? order by 1, 2, 3`)
      .all(dim);
    expect({ dim, rows: rolled }).toEqual({ dim, rows: raw });
  }
  const rawBots = db
    .query(
      `select link_id, (clicked_at / ${HOUR}) * ${HOUR} as bucket, coalesce(bot_name, '') as value, count(*) as n from clicks where is_bot group by 1, 2, 3 order by 1, 2, 3`,
    )
    .all();
  expect(
    db.query(`select link_id, bucket, value, clicks as n from link_stats_dim where span = ${HOUR} and dim = 'bot' order by 1, 2, 3`).all(),
  ).toEqual(rawBots);
  const rawTime = db
    .query(
      `select link_id, (clicked_at / ${HOUR}) * ${HOUR} as bucket, count(*) as n, sum(is_unique and not is_bot) as u, sum(is_bot) as b from clicks group by 1, 2 order by 1, 2`,
    )
    .all();
  expect(
    db.query(`select link_id, bucket, clicks as n, uniques as u, bots as b from link_stats_time where span = ${HOUR} order by 1, 2`).all(),
  ).toEqual(rawTime);
  expect(rawTime.length).toBeGreaterThan(4);
});

test("two packed batches joined keep every click and string in order", () => {
  const at = new Date(1_700_000_000_000);
  const one = [
    { linkId: 1, clickedAt: at, ip: "203.0.113.1", userAgent: CHROME, referer: null, isBot: false, botName: null },
    { linkId: 2, clickedAt: at, ip: null, userAgent: null, referer: "https://t.me/a", isBot: true, botName: "TelegramBot" },
  ];
  const two = [
    { linkId: 3, clickedAt: at, ip: "203.0.113.2", userAgent: IPHONE, referer: "https://t.me/a", isBot: false, botName: null },
    { linkId: 1, clickedAt: at, ip: "203.0.113.1", userAgent: CHROME, referer: null, isBot: true, botName: "curl" },
  ];
  const journaled = (list: PendingClick[]) => list.map((c) => ({ ...c, seq: 0 })); // not journaled: sequence number 0
  expect(unpackClicks(concatPacked(packClicks(one), packClicks(two)))).toEqual(journaled([...one, ...two]));
  expect(unpackClicks(concatPacked(packClicks([]), packClicks(two)))).toEqual(journaled(two));
});

test("a user agent id learnt by a flush inside an outer transaction that rolls back is not reused for another agent", async () => {
  const l = await newLink();
  const writer = createClickWriter(s.t.deps, CLICK_LISTENERS);
  const recorder = createTestSink(s.t.deps, CLICK_LISTENERS, { writer: () => writer });
  expect(() =>
    s.t.deps.db.transaction(() => {
      // on bun:sqlite the write runs before its promise is returned: a savepoint of the outer transaction, not a commit
      void writer.write(packClicks([{ ...click(l.id, { userAgent: "Ghost/1.0" }), seq: 0 }]));
      throw new Error("outer work failed");
    }),
  ).toThrow("outer work failed");
  expect(s.t.deps.db.select().from(userAgents).all()).toEqual([]);
  recorder.record(click(l.id, { userAgent: "Other/2.0" })); // takes the rolled-back row's id
  expect(await recorder.flush()).toBe(1);
  recorder.record(click(l.id, { userAgent: "Ghost/1.0" }));
  expect(await recorder.flush()).toBe(1);
  expect(agentsOf(l.id)).toEqual(["Other/2.0", "Ghost/1.0"]);
});

test("a missing and an empty address with the same agent are one visitor within a batch, as they are in click_visitors", async () => {
  const l = await newLink();
  const t0 = s.t.clock.now().getTime();
  const H = 3_600_000;
  const recorder = createTestSink(s.t.deps);
  for (const [ip, h] of [
    [null, 0],
    ["", 1],
    [null, 25],
    ["", 26],
  ] as const)
    recorder.record(click(l.id, { ip, clickedAt: new Date(t0 + h * H) }));
  expect(await recorder.flush()).toBe(4);
  const unique = s.t.deps.db
    .select()
    .from(clicks)
    .where(eq(clicks.linkId, l.id))
    .orderBy(clicks.id)
    .all()
    .map((r) => r.isUnique);
  expect(unique).toEqual([true, false, true, false]);
});
