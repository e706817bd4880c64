import { Composer, InlineKeyboard, InputFile } from "grammy";
import type { BotContext } from "../context";
import { AppError } from "../../core/errors";
import { PERIODS } from "../../core/analytics/range";
import { statsText, summaryImage } from "../../core/analytics/summary";
import { linkQrPng, trackingUrl } from "../../core/analytics/qr";
import { exportClicks, EXPORT_FORMATS } from "../../core/analytics/export";
import { ownedLink } from "../../core/analytics/stats";

const FORMAT_LABEL: Record<string, string> = { csv: "CSV", xlsx: "Excel", pdf: "PDF" };

function statsKeyboard(linkId: number, period: string) {
  const kb = new InlineKeyboard();
  for (const p of Object.keys(PERIODS)) kb.text(p === period ? `• ${p} •` : p, `an:p:${linkId}:${p}`);
  return kb.row().text("📈 Chart", `an:c:${linkId}:${period}`).text("📤 Export", `an:e:${linkId}`).text("🔳 QR", `an:q:${linkId}`);
}

function exportKeyboard(linkId: number) {
  const kb = new InlineKeyboard();
  for (const [label, period] of [["last 30 days", "30d"], ["all time", "all"]] as const) {
    for (const f of EXPORT_FORMATS) kb.text(`${FORMAT_LABEL[f]} · ${label}`, `an:x:${linkId}:${f}:${period}`);
    kb.row();
  }
  return kb;
}

/** Runs a handler; domain errors (unknown link, no clicks…) are shown to the user instead of failing. */
export async function guarded(ctx: BotContext, run: (userId: number) => Promise<void>) {
  if (!ctx.user) return;
  try {
    await run(ctx.user.id);
    if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => {});
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    // a query already answered (e.g. "Drawing the chart…") cannot show an alert: say it in the chat
    if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: e.message.slice(0, 200), show_alert: true }).catch(() => ctx.reply(`⚠️ ${e.message}`));
    else await ctx.reply(`⚠️ ${e.message}`);
  }
}

/** The stats summary of link `id` as a new message, with period buttons that edit it in place. */
export async function sendStats(ctx: BotContext, userId: number, id: number, period = "30d") {
  await ctx.reply(statsText(ctx.deps, userId, id, period), { reply_markup: statsKeyboard(id, period), link_preview_options: { is_disabled: true } });
}

/** The click chart of link `id` as a photo. */
export async function sendChart(ctx: BotContext, userId: number, id: number, period = "30d") {
  await ctx.replyWithChatAction("upload_photo");
  const { png, caption, filename } = await summaryImage(ctx.deps, userId, { linkId: id, period });
  await ctx.replyWithPhoto(new InputFile(png, filename), { caption });
}

/** The export format choice for link `id`. */
export async function sendExportMenu(ctx: BotContext, userId: number, id: number) {
  const link = ownedLink(ctx.deps, userId, id);
  await ctx.reply(`📤 Export the clicks of ${trackingUrl(ctx.deps, link)} (newest first, up to 10,000). Choose a format:`, {
    reply_markup: exportKeyboard(link.id), link_preview_options: { is_disabled: true },
  });
}

/** The QR code of link `id` as a photo. */
export async function sendQr(ctx: BotContext, userId: number, id: number) {
  const link = ownedLink(ctx.deps, userId, id);
  const png = await linkQrPng(ctx.deps, link);
  await ctx.replyWithPhoto(new InputFile(png, `qr-${link.code}.png`), { caption: `QR code for ${trackingUrl(ctx.deps, link)}` });
}

export const analyticsFeature = new Composer<BotContext>();
const priv = analyticsFeature.chatType("private");

// Stats from the card: a new message; period buttons (an:p) then edit it in place.
// period buttons of a stats message edit it in place
priv.callbackQuery(/^an:p:(\d+):(\w+)$/, (ctx) => guarded(ctx, async (userId) => {
  const [, id, period] = ctx.match as RegExpMatchArray;
  const text = statsText(ctx.deps, userId, Number(id), period!);
  await ctx.editMessageText(text, { reply_markup: statsKeyboard(Number(id), period!), link_preview_options: { is_disabled: true } });
}));

priv.callbackQuery(/^an:c:(\d+):(\w+)$/, (ctx) => guarded(ctx, async (userId) => {
  await ctx.answerCallbackQuery({ text: "Drawing the chart…" });
  await sendChart(ctx, userId, Number(ctx.match![1]), ctx.match![2]);
}));

priv.callbackQuery(/^an:e:(\d+)$/, (ctx) => guarded(ctx, (userId) => sendExportMenu(ctx, userId, Number(ctx.match![1]))));

priv.callbackQuery(/^an:x:(\d+):(\w+):(\w+)$/, (ctx) => guarded(ctx, async (userId) => {
  const [, id, format, period] = ctx.match as RegExpMatchArray;
  ownedLink(ctx.deps, userId, Number(id));
  await ctx.answerCallbackQuery({ text: "Export started" });
  const progress = await ctx.reply(`⏳ Exporting ${FORMAT_LABEL[format!] ?? format}…`);
  let shown = -1;
  const edit = (text: string) => ctx.api.editMessageText(progress.chat.id, progress.message_id, text).catch(() => {});
  try {
    const res = await exportClicks(ctx.deps, userId, Number(id), { format: format!, period }, async (done, total) => {
      const pct = Math.floor((done / total) * 100);
      if (total > 2_500 && pct !== shown && pct < 100) {
        shown = pct;
        await edit(`⏳ Exporting ${FORMAT_LABEL[format!]}… ${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} rows (${pct}%)`);
      }
    });
    await edit(res.ok ? `✅ ${res.message}` : `ℹ️ ${res.message}`);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await edit(`❌ ${e.message}`);
  }
}));

priv.callbackQuery(/^an:q:(\d+)$/, (ctx) => guarded(ctx, (userId) => sendQr(ctx, userId, Number(ctx.match![1]))));

/** `/summary [period]`: the all-links card (default last 30 days). */
priv.command("summary", (ctx) => guarded(ctx, async (userId) => {
  await ctx.replyWithChatAction("upload_photo");
  const { png, caption, filename } = await summaryImage(ctx.deps, userId, { period: ctx.match.trim() || "30d" });
  await ctx.replyWithPhoto(new InputFile(png, filename), { caption });
}));
