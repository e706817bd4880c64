import { t, type Static } from "elysia";
import { DateTime, IdParams, Int, TimeZoneModel, Url, Words } from "../shared/models";
import { PERIOD_NAMES } from "../../core/analytics/range";
import { GRANULARITIES } from "../../core/analytics/stats";
import { EXPORT_FORMATS } from "../../core/analytics/export";

/** A report's period: the one list core reads (30d when left out). */
export const PeriodModel = Words(PERIOD_NAMES, { description: "30d when left out" });
const period = t.Optional(PeriodModel);
const tz = t.Optional(TimeZoneModel);

/** The allowed words are the core's own lists, checked in core (with the page bounds) so their 400s name them. */
export const AnalyticsModel = {
  idParams: IdParams,
  period: t.Object({ period }),
  periodTz: t.Object({ period, tz }),
  timeline: t.Object({ period, tz, granularity: t.Optional(Words(GRANULARITIES, { description: "daily when left out" })) }),
  clicks: t.Object({
    page: t.Optional(t.Numeric({ description: "1 to 1000000, default 1" })),
    limit: t.Optional(t.Numeric({ description: "1 to 100, default 50" })),
  }),
  summary: t.Object({
    period,
    linkId: t.Optional(t.Integer({ minimum: 1 })),
    dateFrom: t.Optional(t.String()),
    dateTo: t.Optional(t.String()),
    tz,
  }),
  shareQr: t.Object({ qrImage: t.String({ minLength: 1 }) }),
  export: t.Object({ format: Words(EXPORT_FORMATS), period }),
};

const share = t.Object({
  name: t.String(),
  count: Int(),
  percentage: t.Number({ description: "to one decimal; the shares add up to 100" }),
});

/** What the analytics routes answer. */
export const AnalyticsViews = {
  stats: t.Object({
    totalClicks: Int(),
    uniqueClicks: Int(),
    botClicks: Int(),
    avgClicksPerDay: t.Number(),
    topCountry: t.Nullable(t.String()),
    rules: t.Array(t.Object({ index: Int(), clicks: Int() }), {
      description: "clicks each redirect rule sent, by the rule's place",
    }),
    variants: t.Array(
      t.Object({
        index: Int(),
        url: Url(),
        clicks: Int(),
        uniqueClicks: Int(),
        conversions: Int({ description: "conversions of the clicks this variant sent" }),
        conversionRate: t.Nullable(t.Number({ description: "conversions per unique click; null without unique clicks" })),
      }),
    ),
    conversions: t.Object({
      count: Int(),
      value: t.Record(t.String(), t.Number(), { description: "the sum of values by currency" }),
      by_event: t.Record(t.String(), Int(), { description: "how many of each event (join: joins through invites)" }),
      rate: t.Nullable(t.Number({ description: "conversions per unique click; null without unique clicks" })),
    }),
  }),
  clicks: t.Object({
    data: t.Array(
      t.Object({
        id: Int(),
        clicked_at: DateTime(),
        ip: t.Nullable(t.String()),
        country: t.Nullable(t.String()),
        city: t.Nullable(t.String()),
        device: t.Nullable(t.String({ description: "mobile, tablet, desktop, bot or other" })),
        browser: t.Nullable(t.String()),
        os: t.Nullable(t.String()),
        referer: t.Nullable(t.String()),
        is_bot: t.Boolean(),
        bot_name: t.Nullable(t.String()),
        is_unique: t.Boolean(),
        rule: t.Nullable(Int()),
        variant: t.Nullable(Int()),
        click_id: t.Nullable(t.String({ description: "the click's id, as {click_id} gave it to the target" })),
        sub1: t.Nullable(t.String()),
        sub2: t.Nullable(t.String()),
        sub3: t.Nullable(t.String()),
        sub4: t.Nullable(t.String()),
        sub5: t.Nullable(t.String()),
      }),
    ),
    total: Int(),
    page: Int(),
    limit: Int(),
  }),
  geo: t.Array(
    t.Object({ country: t.String({ description: "ISO 3166-1 alpha-2, empty when unknown" }), count: Int(), percentage: t.Number() }),
  ),
  devices: t.Object({ devices: t.Array(share), browsers: t.Array(share), os: t.Array(share) }),
  referrers: t.Array(
    t.Object({
      referrer: t.String({
        description:
          "the host of the Referer the visitor's browser sent (lower case, without www. and port); empty when none was sent (direct, an app, a QR code)",
      }),
      count: Int(),
      percentage: t.Number(),
    }),
  ),
  timeline: t.Array(
    t.Object({ date: t.String({ description: "YYYY-MM-DD, or YYYY-MM-DDTHH:00 when hourly" }), clicks: Int(), unique: Int() }),
  ),
  bots: t.Object({ totalBots: Int(), botPercentage: t.Number(), bots: t.Array(t.Object({ name: t.String(), count: Int() })) }),
  heatmap: t.Array(
    t.Object({
      day: Int({ minimum: 0, maximum: 6, description: "0 = Sunday" }),
      hour: Int({ minimum: 0, maximum: 23 }),
      count: Int(),
    }),
  ),
  sent: t.Object({ ok: t.Literal(true) }),
  exported: t.Object({ ok: t.Boolean(), message: t.String(), rows: Int() }),
};

export type LinkStats = Static<typeof AnalyticsViews.stats>;
export type Devices = Static<typeof AnalyticsViews.devices>;
