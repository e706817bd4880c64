import { t } from "elysia";

const every = t.Union([t.Literal("off"), t.Literal("day"), t.Literal("week")]);

export const SettingsModel = {
  settings: t.Object({
    time_zone: t.String({ description: "IANA time zone name" }),
    report_every: every,
    report_hour: t.Integer({ minimum: 0, maximum: 23 }),
    report_weekday: t.Integer({ minimum: 1, maximum: 7, description: "1 = Monday … 7 = Sunday" }),
  }),
  patch: t.Object(
    {
      time_zone: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
      report_every: t.Optional(every),
      report_hour: t.Optional(t.Integer({ minimum: 0, maximum: 23, error: "must be a whole number from 0 to 23" })),
      report_weekday: t.Optional(t.Integer({ minimum: 1, maximum: 7, error: "must be a whole number from 1 (Monday) to 7 (Sunday)" })),
    },
    { additionalProperties: false },
  ),
};
