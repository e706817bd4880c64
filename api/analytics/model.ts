import { t } from "elysia";

/** `period`, `tz`, `granularity` and the page bounds are checked in core so their 400s name the allowed values. */
export const AnalyticsModel = {
  idParams: t.Object({ id: t.Numeric({ minimum: 1 }) }),
  period: t.Object({ period: t.Optional(t.String()) }),
  periodTz: t.Object({ period: t.Optional(t.String()), tz: t.Optional(t.String()) }),
  timeline: t.Object({ period: t.Optional(t.String()), tz: t.Optional(t.String()), granularity: t.Optional(t.String()) }),
  clicks: t.Object({
    page: t.Optional(t.Numeric()),
    limit: t.Optional(t.Numeric()),
  }),
  summary: t.Object({
    period: t.Optional(t.String()),
    linkId: t.Optional(t.Integer({ minimum: 1 })),
    dateFrom: t.Optional(t.String()),
    dateTo: t.Optional(t.String()),
    tz: t.Optional(t.String()),
  }),
  shareQr: t.Object({ qrImage: t.String({ minLength: 1 }) }),
  export: t.Object({ format: t.String(), period: t.Optional(t.String()) }),
};
