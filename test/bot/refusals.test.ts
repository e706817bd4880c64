/**
 * A refusal names the option and says its rule in words, with the limit core checks, in both
 * languages: the link's password, an A/B weight, the iPhone target, a share link's password.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { unitBot } from "./unit";
import { expectRussian } from "../helpers/russian";
import { t } from "../../core/i18n/translate";

let b: ReturnType<typeof unitBot>;
afterEach(() => b.close());

const lastText = () => b.calls.findLast((c) => c.method === "sendMessage" || c.method === "editMessageText")!.params.text as string;

for (const language of ["en", "ru"] as const) {
  describe(`refusals in ${language}`, () => {
    test("the option's name and its rule, with core's limits", async () => {
      b = unitBot({}, { language_code: language });
      const label = (key: string) => t(language, key);
      await b.send("https://example.com/spring");
      await b.press(label("link-option-password"));
      await b.send("ab");
      expect(lastText()).toStartWith(language === "ru" ? "Пароль — от 4 до 128 символов." : "The password must be 4 to 128 characters.");
      await b.send("/cancel");
      await b.press(label("link-option-ios"));
      await b.send("ftp://example.com/app");
      expect(lastText()).toStartWith(
        language === "ru"
          ? "Адрес для iPhone и iPad — полный адрес, начинается с http:// или https://."
          : "The iPhone and iPad target must be an http:// or https:// URL.",
      );
      await b.send("/cancel");
      await b.press(label("link-option-ab"));
      await b.send("https://example.com/b 30");
      await b.press(label("link-option-ab"));
      await b.send("weight 2 170");
      expect(lastText()).toStartWith(
        language === "ru" ? "Вариант 2, вес — целое число от 1 до 100." : "Variant 2, weight must be a whole number from 1 to 100.",
      );
      if (language === "ru") expectRussian(b.calls);
    });
  });
}

test("counts agree with their nouns through Fluent's plural rules; no “(а)” endings", () => {
  expect(t("ru", "url-too-long", { length: 2051, max: 2048 }).replace(/\s/g, " ")).toStartWith("В этой ссылке 2 051 символ;");
  expect(t("ru", "url-too-long", { length: 2052, max: 2048 }).replace(/\s/g, " ")).toStartWith("В этой ссылке 2 052 символа;");
  expect(t("ru", "invite-name-too-long", { length: 51 })).toStartWith("В названии 51 символ,");
  expect(t("ru", "trackers-item-new", { count: 1 })).toBe("(1 новое)");
  expect(t("ru", "trackers-item-new", { count: 5 })).toBe("(5 новых)");
  expect(t("ru", "request-approved", { name: "Вера" })).toBe("✅ Заявка Вера одобрена.");
  expect(t("ru", "check-max-length", { field: "Название", max: 51 })).toBe("Название — не длиннее 51 символа.");
  expect(t("ru", "export-progress", { format: "CSV", done: 2500, total: 2501, percent: 99 }).replace(/\s/g, " ")).toBe(
    "⏳ Готовлю CSV… 2 500 из 2 501 строки (99%)",
  );
});

test("a note stored without a name is named in its owner's language and day", async () => {
  const { findUserByIdentity } = await import("../../core/accounts/users");
  const { createFolder } = await import("../../core/secure/folders");
  const { createFile } = await import("../../core/secure/files");
  const { updateSettings } = await import("../../core/reports/settings");
  b = unitBot({}, { language_code: "ru" });
  await b.send("/start");
  const user = (await findUserByIdentity(b.t.deps, "telegram", "42"))!;
  // 22:30 UTC on the 27th is already the 28th in Moscow
  b.t.clock.set("2026-11-27T22:30:00Z");
  await updateSettings(b.t.deps, user.id, { time_zone: "Europe/Moscow" });
  const folder = await createFolder(b.t.deps, user.id, { name: "Договоры" });
  const note = await createFile(b.t.deps, user.id, { folderId: folder.id, contentType: "text", textContent: "секрет" });
  expect(note.name).toBe("Заметка 1, 28 нояб.");
});
