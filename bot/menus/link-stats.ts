/**
 * A link's analytics screens under its card: Stats (`link-stats`, drawn for the link and a period:
 * the text summary, one button per period, Chart, QR, Export) and Export (`link-export`: format ×
 * period; the file comes as a document, a long export shows its progress).
 */
import { PERIODS } from "../../core/analytics/range";
import { linkStatsFigures } from "../../core/analytics/summary";
import { exportClicks, EXPORT_FORMATS } from "../../core/analytics/export";
import { ownedLink } from "../../core/links/links";
import { trackingUrl } from "../../core/analytics/qr";
import { AppError } from "../../core/errors";
import type { BotContext } from "../context";
import { l, localeOf, num } from "../i18n";
import { deviceName } from "../../core/i18n/translate";
import { problemText } from "../problem";
import { act, back, createScreen, go, idOf, payload } from "./nav";
import { sendChart, sendQr } from "./link-photos";

const PERIOD_KEYS = Object.keys(PERIODS);
/** The index of `period` among the periods (the stats screen's second id). */
export const periodIndex = (period: string) => Math.max(0, PERIOD_KEYS.indexOf(period));
const periodOf = (ctx: BotContext) => PERIOD_KEYS[idOf(ctx, 1)] ?? "30d";
const FORMAT_LABEL: Record<string, string> = { csv: "CSV", xlsx: "Excel", pdf: "PDF" };
const EXPORT_PERIODS = ["30d", "all"] as const;
const uid = (ctx: BotContext) => ctx.owner.id;

/** Says a domain error ("no clicks yet") in the chat instead of moving away from the screen. */
export async function say(ctx: BotContext, run: () => Promise<void>) {
  try {
    await run();
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply(ctx.t("warning", { text: Bun.escapeHTML(problemText(ctx, e)) }));
  }
}

/** A link's stats over the screen's period, in the user's words and number format. */
function statsText(ctx: BotContext, f: Awaited<ReturnType<typeof linkStatsFigures>>): string {
  const esc = (s: string) => Bun.escapeHTML(s);
  const pct = (items: { name: string; percentage: number }[]) => items.map((i) => `${esc(i.name)} ${num(ctx, i.percentage)}%`).join(", ");
  const lines = [
    ctx.t("stats-title", { name: esc(f.name), period: ctx.t(`period-${f.period}`) }),
    // as code: a tap copies it, where a tapped link would open it and count a click
    `<code>${esc(f.trackingUrl)}</code>`,
    "",
    ctx.t("stats-clicks", { count: num(ctx, f.totals.clicks) }),
    ctx.t("stats-unique", { count: num(ctx, f.totals.unique) }),
    ctx.t("stats-bots", { count: num(ctx, f.totals.bots) }),
    ctx.t("stats-per-day", { count: num(ctx, f.totals.perDay) }),
  ];
  if (f.countries.length) lines.push(ctx.t("stats-countries", { list: pct(f.countries) }));
  if (f.devices.length)
    lines.push(ctx.t("stats-devices", { list: pct(f.devices.map((d) => ({ ...d, name: deviceName(localeOf(ctx), d.name) }))) }));
  if (f.referrers.length)
    lines.push(
      ctx.t("stats-referrers", {
        list: pct(f.referrers.map((r) => ({ name: r.name || ctx.t("stats-direct"), percentage: r.percentage }))),
      }),
    );
  if (f.rules.length)
    lines.push("", ctx.t("stats-rules"), ...f.rules.map((r) => `  ${r.number}. ${ctx.t("stats-rule-clicks", { clicks: r.clicks })}`));
  if (f.variants.length)
    lines.push(
      "",
      ctx.t("stats-variants"),
      ...f.variants.map(
        (v) =>
          `  ${v.number}. ${esc(v.url)}: ${ctx.t("stats-variant-clicks", { clicks: v.clicks, percentage: v.percentage, unique: v.unique })}`,
      ),
    );
  return lines.join("\n");
}

export const statsScreen = createScreen("link-stats", 2, {
  load: (ctx, [id = 0, period = 0]) => linkStatsFigures(ctx.deps, uid(ctx), id, PERIOD_KEYS[period] ?? "30d"),
  body: statsText,
});
export const exportScreen = createScreen("link-export", 1, {
  load: async (ctx, [id = 0]) => trackingUrl(ctx.deps, await ownedLink(ctx.deps, uid(ctx), id)),
  body: (ctx, url) => ctx.t("export-title", { url: Bun.escapeHTML(url), max: num(ctx, 10_000) }),
});

// the buttons need only the screen's ids: drawn without its figures, so a press computes none
PERIOD_KEYS.forEach((p, i) =>
  go(
    statsScreen,
    statsScreen,
    (c: BotContext) => c.t(p === periodOf(c) ? "stats-period-current" : "stats-period", { period: c.t(`period-short-${p}`) }),
    "link-stats",
    (c) => [idOf(c), i],
  ),
);
statsScreen.row();
statsScreen.text({ text: l("card-chart"), payload: payload(statsScreen) }, (c) => say(c, () => sendChart(c, uid(c), idOf(c), periodOf(c))));
statsScreen.text({ text: l("card-qr"), payload: payload(statsScreen) }, (c) => say(c, () => sendQr(c, uid(c), idOf(c))));
go(statsScreen, statsScreen, l("card-export"), "link-export", (c) => [idOf(c)]);
statsScreen.row();
back(statsScreen, l("stats-back"), "link", (c) => [idOf(c)]);

/** Runs an export with a progress message edited as it goes (for exports of more than 2,500 rows). */
async function runExport(ctx: BotContext, id: number, format: string, period: string) {
  await ownedLink(ctx.deps, uid(ctx), id);
  const progress = await ctx.reply(ctx.t("export-running", { format: FORMAT_LABEL[format] ?? format }));
  let shown = -1;
  const edit = (text: string) => ctx.api.editMessageText(progress.chat.id, progress.message_id, text).catch(() => {});
  try {
    const res = await exportClicks(ctx.deps, uid(ctx), id, { format, period }, async (done, total) => {
      const pct = Math.floor((done / total) * 100);
      if (total > 2_500 && pct !== shown && pct < 100) {
        shown = pct;
        await edit(ctx.t("export-progress", { format: FORMAT_LABEL[format] ?? format, done, total, percent: pct }));
      }
    });
    await edit(
      !res.ok
        ? ctx.t("export-empty", { code: Bun.escapeHTML(res.code), period: res.period })
        : ctx.t(res.capped ? "export-sent-capped" : "export-sent", {
            filename: Bun.escapeHTML(res.filename ?? ""),
            count: res.rows,
            max: num(ctx, 10_000),
          }),
    );
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await edit(`❌ ${Bun.escapeHTML(problemText(ctx, e))}`);
  }
}

for (const period of EXPORT_PERIODS) {
  for (const f of EXPORT_FORMATS)
    exportScreen.text(
      {
        text: l("export-button", { format: FORMAT_LABEL[f] ?? f, period }),
        payload: payload(exportScreen),
      },
      (ctx) => act(ctx, () => runExport(ctx, idOf(ctx), f, period)),
    );
  exportScreen.row();
}
back(exportScreen, l("stats-back"), "link", (c) => [idOf(c)]);
