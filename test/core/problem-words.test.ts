/**
 * Problems in the words of the person who meets them (core/i18n/problem.ts, for the bot and the
 * mini-app): no field path, items counted from 1, in English and in Russian.
 */
import { expect, test } from "bun:test";
import { fieldName, planLimitMessage, problemInWords } from "../../core/i18n/problem";
import { t, type Language } from "../../core/i18n/translate";
import { AppError, FieldError, PlanLimit, ValidationError } from "../../core/errors";

const inLanguage = (language: Language) => (key: string, vars?: Record<string, string | number>) => t(language, key, vars);
const en = inLanguage("en");
const ru = inLanguage("ru");

test("field paths become the options' names; list items count from 1 as the screens count", () => {
  expect(fieldName("expires_at", en)).toBe("the expiry");
  expect(fieldName("variants[2].weight", en)).toBe("variant 3, weight");
  expect(fieldName("rules[0].if.country[1]", en)).toBe("rule 1, country 2");
  expect(fieldName("rules[4].if.query.utm_source", en)).toBe("rule 5, query, UTM source");
  expect(fieldName("some_new_field", en)).toBe("some new field");
  expect(fieldName("expires_at", ru)).toBe(t("ru", "field-expires_at"));
  expect(fieldName("variants[2].weight", ru)).toBe(`${t("ru", "field-variant")} 3, ${t("ru", "field-weight")}`);
});

test("a placement's fields have names of their own in both languages", () => {
  expect(fieldName("post_url", en)).toBe("the post's URL");
  expect(fieldName("publish_at", ru)).toBe("дата публикации");
  for (const f of ["post_url", "venue", "publish_at", "notes", "views", "currency"]) expect(fieldName(f, ru)).toBe(t("ru", `field-${f}`));
});

test("in English a problem is one sentence per field; an error without fields keeps its message", () => {
  expect(problemInWords("en", new FieldError("password", "must be 4 to 128 characters"), en)).toBe(
    "The password must be 4 to 128 characters.",
  );
  expect(
    problemInWords(
      "en",
      new ValidationError("two", [
        { field: "max_clicks", message: "must be a positive whole number" },
        { field: "url", message: "is empty." },
      ]),
      en,
    ),
  ).toBe("The click cap must be a positive whole number.\nThe target URL is empty.");
  // a message that is a sentence of its own follows the option's name after a colon
  expect(problemInWords("en", new FieldError("keyword", "the parenthesis at position 1 is not closed"), en)).toBe(
    "The keyword: the parenthesis at position 1 is not closed.",
  );
  expect(problemInWords("en", new AppError(409, "tag_exists", 'You already have a tag named "x"'), en)).toBe(
    'You already have a tag named "x"',
  );
});

test("in Russian each field is named in Russian, and an error without fields is said by its kind", () => {
  const expiry = problemInWords("ru", new FieldError("expires_at", "must be in the future"), ru);
  expect(expiry).toBe("Срок действия — только в будущем.");
  expect(expiry).not.toMatch(/expires_at|[A-Za-z]{3}/);
  // a sentence that is no known rule: the option named, at the start, in the nominative
  expect(problemInWords("ru", new FieldError("url", "something unheard of"), ru)).toBe("Ссылка назначения: такое значение не подходит.");
  expect(problemInWords("ru", { code: "plan_limit", message: "Your plan allows 10 links" }, ru)).toBe(t("ru", "problem-plan_limit"));
  // a plan limit core refuses says its numbers in Russian too
  const limit = new PlanLimit(planLimitMessage("free", 2, "secureFiles", 2));
  expect(limit.message).toBe("Your free plan allows 2 secure files; you have 2. Upgrade to add more.");
  expect(problemInWords("ru", limit, ru)).toBe(
    "Лимит тарифа free: защищённых файлов — не больше 2, у вас уже 2. Чтобы добавить ещё, смените тариф.",
  );
  expect(problemInWords("ru", { code: "something_new", message: "Something new went wrong" }, ru)).toBe(t("ru", "problem-other"));
});

test("in Russian the rule is said in words with core's own limits, in both languages' plurals", async () => {
  const said = (e: AppError) => problemInWords("ru", e, ru);
  // the password's limits come from where core checks them
  const { PASSWORD_MIN, PASSWORD_MAX } = await import("../../core/links/password");
  expect(said(new FieldError("password", `must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`))).toBe(
    `Пароль — от ${PASSWORD_MIN} до ${PASSWORD_MAX} символов.`,
  );
  expect(said(new FieldError("title", "must be at most 51 characters"))).toBe("Название — не длиннее 51 символа.");
  expect(said(new FieldError("title", "must be at most 200 characters"))).toBe("Название — не длиннее 200 символов.");
  expect(said(new FieldError("variants[1].weight", "must be a whole number from 1 to 100"))).toBe(
    "Вариант 2, вес — целое число от 1 до 100.",
  );
  expect(said(new FieldError("ios_url", "must be an absolute http(s) URL"))).toBe(
    "Адрес для iPhone и iPad — полный адрес, начинается с http:// или https://.",
  );
  expect(said(new FieldError("period", "must be one of 1d, 7d, 30d"))).toBe("Период — одно из: 1d, 7d, 30d.");
  expect(said(new FieldError("starts_at", "must be earlier than expires_at"))).toBe("Начало — раньше, чем срок действия.");
  expect(said(new FieldError("url", "is required"))).toBe("Ссылка назначения: нужно указать.");
  expect(said(new FieldError("max_clicks", "must be a positive whole number"))).toBe("Лимит переходов — целое число больше 0.");
  expect(problemInWords("en", new FieldError("title", "must be at most 51 characters"), en)).toBe(
    "The title must be at most 51 characters.",
  );
});
