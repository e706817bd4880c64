import { t } from "elysia";

const language = t.Union([t.Literal("en"), t.Literal("ru")]);
const every = t.Union([t.Literal("off"), t.Literal("day"), t.Literal("week")]);

export const SettingsModel = {
  settings: t.Object({
    time_zone: t.String({ description: "IANA time zone name" }),
    report_every: every,
    report_hour: t.Integer({ minimum: 0, maximum: 23 }),
    report_weekday: t.Integer({ minimum: 1, maximum: 7, description: "1 = Monday … 7 = Sunday" }),
    language: t.Union([t.Literal("en"), t.Literal("ru")], {
      description: "The language the bot and the mini-app speak to you: your choice, else your Telegram app's (Russian for ru, uk, be, kk)",
    }),
    language_chosen: t.Union([language, t.Null()], { description: "Your own choice; null follows the Telegram app's language" }),
    currency: t.String({
      description: "The currency a price typed without one (5000) is read in: your choice, else RUB in Russian, else USD",
    }),
    currency_chosen: t.Nullable(t.String({ description: "Your own choice (ISO 4217); null follows the language" })),
  }),
  patch: t.Object(
    {
      time_zone: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
      report_every: t.Optional(every),
      report_hour: t.Optional(t.Integer({ minimum: 0, maximum: 23, error: "must be a whole number from 0 to 23" })),
      report_weekday: t.Optional(t.Integer({ minimum: 1, maximum: 7, error: "must be a whole number from 1 (Monday) to 7 (Sunday)" })),
      language: t.Optional(t.Union([language, t.Null()], { error: "must be en, ru or null (follow the Telegram app)" })),
      currency: t.Optional(
        t.Nullable(t.String({ minLength: 3, maxLength: 3, description: "ISO 4217 code; null: RUB in Russian, else USD" })),
      ),
    },
    { additionalProperties: false },
  ),
};
