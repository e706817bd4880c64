/**
 * A link's analytics screens under its card: Stats (`link-stats`, drawn for the link and a period:
 * the text summary, one button per period, Chart, QR, Export) and Export (`link-export`: format ×
 * period; the file comes as a document, a long export shows its progress).
 */
import { PERIODS } from "../../core/analytics/range";
import { statsText } from "../../core/analytics/summary";
import { exportClicks, EXPORT_FORMATS } from "../../core/analytics/export";
import { ownedLink } from "../../core/analytics/stats";
import { trackingUrl } from "../../core/analytics/qr";
import { AppError } from "../../core/errors";
import type { BotContext } from "../context";
import { act, back, createScreen, dynamic, go, idOf, payload } from "./nav";
import { sendChart, sendQr } from "../features/analytics";

const PERIOD_KEYS = Object.keys(PERIODS);
/** The index of `period` among the periods (the stats screen's second id). */
export const periodIndex = (period: string) => Math.max(0, PERIOD_KEYS.indexOf(period));
const periodOf = (ctx: BotContext) => PERIOD_KEYS[idOf(ctx, 1)] ?? "30d";
const FORMAT_LABEL: Record<string, string> = { csv: "CSV", xlsx: "Excel", pdf: "PDF" };
const EXPORT_PERIODS = [["last 30 days", "30d"], ["all time", "all"]] as const;
const uid = (ctx: BotContext) => ctx.user!.id;

/** Says a domain error ("no clicks yet") in the chat instead of moving away from the screen. */
export async function say(ctx: BotContext, run: () => Promise<void>) {
  try {
    await run();
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply(`⚠️ ${e.message}`);
  }
}

export const statsScreen = createScreen("link-stats", 2, async (ctx) => Bun.escapeHTML(await statsText(ctx.deps, uid(ctx), idOf(ctx), periodOf(ctx))));
export const exportScreen = createScreen("link-export", 1, async (ctx) =>
  Bun.escapeHTML(`📤 Export the clicks of ${await trackingUrl(ctx.deps, await ownedLink(ctx.deps, uid(ctx), idOf(ctx)))} (newest first, up to 10,000). Choose a format:`));

dynamic(statsScreen.menu, (ctx, range) => {
  const id = idOf(ctx);
  const current = periodOf(ctx);
  PERIOD_KEYS.forEach((p, i) => go(range, statsScreen, p === current ? `• ${p} •` : p, "link-stats", () => [id, i]));
  range.row();
  range.text({ text: "📈 Chart", payload: payload(statsScreen) }, (c) => say(c, () => sendChart(c, uid(c), idOf(c), periodOf(c))));
  range.text({ text: "🔳 QR", payload: payload(statsScreen) }, (c) => say(c, () => sendQr(c, uid(c), idOf(c))));
  go(range, statsScreen, "📤 Export", "link-export", () => [id]);
  range.row();
});
back(statsScreen, "⬅️ Link", "link", (c) => [idOf(c)]);

/** Runs an export with a progress message edited as it goes (for exports of more than 2,500 rows). */
async function runExport(ctx: BotContext, id: number, format: string, period: string) {
  await ownedLink(ctx.deps, uid(ctx), id);
  const progress = await ctx.reply(`⏳ Exporting ${FORMAT_LABEL[format] ?? format}…`);
  let shown = -1;
  const edit = (text: string) => ctx.api.editMessageText(progress.chat.id, progress.message_id, text).catch(() => {});
  try {
    const res = await exportClicks(ctx.deps, uid(ctx), id, { format, period }, async (done, total) => {
      const pct = Math.floor((done / total) * 100);
      if (total > 2_500 && pct !== shown && pct < 100) {
        shown = pct;
        await edit(`⏳ Exporting ${FORMAT_LABEL[format]}… ${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} rows (${pct}%)`);
      }
    });
    await edit(res.ok ? `✅ ${res.message}` : `ℹ️ ${res.message}`);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await edit(`❌ ${e.message}`);
  }
}

for (const [label, period] of EXPORT_PERIODS) {
  for (const f of EXPORT_FORMATS)
    exportScreen.menu.text({ text: `${FORMAT_LABEL[f]} · ${label}`, payload: payload(exportScreen) }, (ctx) => act(ctx, () => runExport(ctx, idOf(ctx), f, period)));
  exportScreen.menu.row();
}
back(exportScreen, "⬅️ Link", "link", (c) => [idOf(c)]);
