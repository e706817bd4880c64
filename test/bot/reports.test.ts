/**
 * Reports and time zone in the bot (Settings → 📬): off, daily or weekly in one tap, the hour and the
 * weekday stepped, the time zone in one answer (a city, a zone or an offset), in English and Russian.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { unitBot } from "./unit";
import { findUserByIdentity, setUserLanguage } from "../../core/accounts/users";
import { getSettings } from "../../core/reports/settings";

let b: ReturnType<typeof unitBot>;
beforeEach(() => (b = unitBot()));
afterEach(() => b.close());

const userId = async () => (await findUserByIdentity(b.t.deps, "telegram", "42"))!.id;
const lastText = () => b.calls.findLast((c) => c.method === "sendMessage" || c.method === "editMessageText")!.params.text as string;

test("Settings → Reports: daily in one tap, the hour stepped, weekly on another day, the time zone by a city; a zone it does not know is asked again", async () => {
  await b.send("/settings");
  await b.press("📬 Reports and time zone");
  expect(lastText()).toContain("Reports are off.");
  expect(lastText()).toContain("Time zone: UTC");
  await b.press("Daily");
  expect(lastText()).toContain("Every day at 09:00: the day before.");
  await b.press("An hour later ▶️");
  await b.press("An hour later ▶️");
  expect(lastText()).toContain("Every day at 11:00");
  await b.press("◀️ An hour earlier");
  expect(await getSettings(b.t.deps, await userId())).toMatchObject({ report_every: "day", report_hour: 10 });
  await b.press("Weekly");
  await b.press("📅 Next weekday");
  expect(lastText()).toContain("Every Tuesday at 10:00: the seven days before.");
  expect(b.labels(b.calls.findLast((c) => c.method === "editMessageText")!).flat()).toContain("✅ Weekly");
  // the way reports come is a choice of three: the one in force has the check mark, the others none
  expect(b.labels(b.calls.findLast((c) => c.method === "editMessageText")!)[0]).toEqual(["No reports", "Daily", "✅ Weekly"]);

  await b.press("🌍 Time zone");
  expect(lastText()).toStartWith("Send your time zone: a city (Moscow, Almaty)");
  await b.send("Atlantis");
  expect(lastText()).toBe(
    "I do not know the time zone “Atlantis”. Send a city (Moscow), a zone name (Europe/Berlin) or an offset (+3), or /cancel.",
  );
  await b.send("Москва");
  expect(lastText()).toStartWith("✅ Time zone: Moscow (UTC+3).");
  expect(lastText()).toContain("Every Tuesday at 10:00");
  expect(await getSettings(b.t.deps, await userId())).toEqual({
    time_zone: "Europe/Moscow",
    report_every: "week",
    report_hour: 10,
    report_weekday: 2,
  });
});

test("in Russian: the same screen in Russian words", async () => {
  await b.send("/settings");
  await setUserLanguage(b.t.deps, await userId(), "ru");
  await b.send("/settings");
  await b.press("📬 Отчёты и часовой пояс");
  expect(lastText()).toContain("Отчёты выключены.");
  expect(b.labels(b.calls.findLast((c) => c.method === "sendMessage" || c.method === "editMessageText")!)[0]).toEqual([
    "✅ Без отчётов",
    "Каждый день",
    "Каждую неделю",
  ]);
  await b.press("Каждый день");
  expect(lastText()).toContain("Каждый день в 09:00: за прошедший день.");
  await b.press("🌍 Часовой пояс");
  await b.send("+5");
  expect(lastText()).toStartWith("✅ Часовой пояс: UTC+5.");
  await b.press("🌍 Часовой пояс");
  await b.send("Питер");
  expect(lastText()).toStartWith("✅ Часовой пояс: Москва (UTC+3).");
  await b.press("🌍 Часовой пояс");
  await b.send("Нью-Йорк");
  expect(lastText()).toContain("Часовой пояс: Нью-Йорк (UTC−5)");
});
