/**
 * A Russian-speaking user far from UTC (Asia/Vladivostok, UTC+10): what the bot says when a webhook
 * or a postback cannot reach its receiver is in Russian, and the times it lists are the user's.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { unitBot } from "./unit";
import { findUserByIdentity } from "../../core/accounts/users";
import { createPostback } from "../../core/conversions/postbacks";
import { updateSettings } from "../../core/reports/settings";
import { insertLink, recordClicks } from "../helpers/webhook-fixtures";
import { WebhookReceiver } from "../helpers/webhook-receiver";
import { eventually } from "../helpers/eventually";
import { joinSeries } from "../../core/channels/export";
import { createLink } from "../../core/links/links";

setDefaultTimeout(30_000);

let b: ReturnType<typeof unitBot>;
let rx: WebhookReceiver | null = null;
afterEach(() => {
  b.close();
  rx?.stop();
  rx = null;
});

/** A Russian user in Vladivostok at 06:30 on 11 March there (20:30 UTC the day before). */
async function russianInVladivostok() {
  b = unitBot({}, { language_code: "ru" });
  await b.send("/start");
  const user = (await findUserByIdentity(b.t.deps, "telegram", "42"))!;
  await updateSettings(b.t.deps, user.id, { time_zone: "Asia/Vladivostok" });
  b.t.clock.set("2026-03-10T20:30:00Z");
  return user;
}
const failed = () =>
  eventually(() => b.calls.find((c) => c.method === "sendMessage" && String(c.params.text).startsWith("❌")), "the answer");

test("a webhook test the receiver refuses is said in Russian, and the deliveries are listed in the user's time", async () => {
  const user = await russianInVladivostok();
  rx = new WebhookReceiver().start();
  rx.respond = 500;
  const link = await insertLink(b.t.deps, user.id, { webhookUrl: `${rx.url}/hook`, webhookEnabled: true });
  await recordClicks(b.t.deps, link);
  await b.send(`/start link_${link.id}`);
  const screen = (await b.press("🔔 Вебхук: проверка, доставки, секрет")).find((c) => c.method === "editMessageText")!;
  const text = String(screen.params.text);
  expect(text).not.toContain("2026-03-10 20:30");
  expect(text).toMatch(/⏳ 11 мар\. 2026 г\., 06:30 · переход/);
  await b.press("🧪 Проверить вебхук");
  expect((await failed()).params.text).toBe(`❌ Проверка вебхука <code>${link.code}</code> не прошла: получатель ответил 500.`);
});

test("a postback test that cannot reach its receiver is said in Russian, with the system's code in brackets", async () => {
  const user = await russianInVladivostok();
  await createPostback(b.t.deps, user.id, { url: "http://127.0.0.1:1/pb?cid={click_id}", events: ["purchase"] });
  await b.send("/settings");
  await b.press("📮 Постбэки");
  await b.press("🧪");
  expect((await failed()).params.text).toBe("❌ Проверка не дошла: до получателя не достучаться (ECONNREFUSED).");
});

test("a channel's «Сегодня» and its joins chart count the user's days, the chart labelled day first", async () => {
  const user = await russianInVladivostok();
  const db = b.t.deps.asyncDb;
  const [channel] = await db
    .insert(db.tables.channels)
    .values({ userId: user.id, chatId: "-100777", type: "channel", title: "Магазин", botIsAdmin: true, canInvite: true })
    .returning();
  b.fake.members.set("-100777:42", { status: "creator" });
  // 15:00 on 10 March in Vladivostok (05:00 UTC): yesterday there, though the same UTC day as now
  await db
    .insert(db.tables.channelJoins)
    .values({ chatId: "-100777", memberId: 99, via: "invite", joinedAt: new Date("2026-03-10T05:00:00Z") });
  await b.send("/channels");
  const screen = (await b.press(/Магазин/)).find((c) => c.method === "editMessageText")!;
  expect(String(screen.params.text)).toContain("Сегодня: +0 / −0");
  const series = await joinSeries(b.t.deps, user.id, channel!.id, 3, undefined, "ru", "Asia/Vladivostok");
  expect(series.labels).toEqual(["09.03", "10.03", "11.03"]);
  expect(series.joins).toEqual([{ name: "Без приглашения", data: [0, 1, 0] }]);
  // in UTC the same join is today's
  expect((await joinSeries(b.t.deps, user.id, channel!.id, 3, undefined, "en", "UTC")).joins[0]!.data).toEqual([0, 0, 1]);
});

test("a forwarded post the plan has no room for is refused at once, with the numbers, in Russian", async () => {
  b = unitBot({ PLAN_LIMITS: JSON.stringify({ free: { links: 2 } }) }, { language_code: "ru" });
  await b.send("/start");
  const user = (await findUserByIdentity(b.t.deps, "telegram", "42"))!;
  await createLink(b.t.deps, user, { url: "https://shop.example/old" });
  await b.send("Скидки: shop.example/a и shop.example/b", {
    forward_origin: { type: "channel", chat: { id: -100777, type: "channel", title: "Новости" }, message_id: 9, date: 0 },
    entities: [
      { type: "url", offset: 8, length: 14 },
      { type: "url", offset: 25, length: 14 },
    ],
  });
  // said at once, before the questions are asked for nothing
  const said = b.calls.filter((c) => c.method === "sendMessage").at(-1)!.params.text as string;
  expect(said).toContain("Лимит тарифа free: ссылок — не больше 2, у вас уже 1. Чтобы добавить ещё, смените тариф.");
  expect(b.calls.some((c) => String(c.params.text).includes("Где он выйдет?"))).toBe(false);
});

test("Telegram refusing a new invite link is said in Russian, with what to do about it", async () => {
  const user = await russianInVladivostok();
  const db = b.t.deps.asyncDb;
  await db
    .insert(db.tables.channels)
    .values({ userId: user.id, chatId: "-100777", type: "channel", title: "Магазин", botIsAdmin: true, canInvite: true });
  b.fake.members.set("-100777:42", { status: "creator" });
  b.fake.failNext.set("createChatInviteLink", {
    error_code: 400,
    description: "Bad Request: not enough rights to manage chat invite links",
  });
  await b.send("/channels");
  await b.press(/Магазин/);
  await b.press(/Новое приглашение/);
  await b.send("Реклама у Пети");
  await b.press("Сразу, без заявки");
  await b.press("Без цены");
  const said = b.calls.filter((c) => c.method === "sendMessage").at(-1)!.params.text as string;
  expect(said).toContain(
    "Telegram отказал: у бота нет права «Пригласительные ссылки» в этом чате — включите его в списке администраторов (Управление каналом → Администраторы → бот).",
  );
  expect(said).not.toMatch(/Bad Request|not enough rights/);
});
