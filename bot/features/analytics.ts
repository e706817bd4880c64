import { Composer, InputFile } from "grammy";
import type { BotContext } from "../context";
import { AppError } from "../../core/errors";
import { summaryImage } from "../../core/analytics/summary";
import { linkQrPng, trackingUrl } from "../../core/analytics/qr";
import { ownedLink } from "../../core/analytics/stats";
import { problemText } from "../problem";
import { targetButton } from "../../core/deep-link";

/** The button under a link's photo that sends its card below it. */
const openCard = (ctx: BotContext, id: number) => ({ inline_keyboard: [[targetButton(ctx.t("open-in-bot"), { kind: "link", id })]] });

/** The click chart of link `id` as a photo. */
export async function sendChart(ctx: BotContext, userId: number, id: number, period = "30d") {
  await ctx.replyWithChatAction("upload_photo");
  const { png, caption, filename } = await summaryImage(ctx.deps, userId, { linkId: id, period });
  await ctx.replyWithPhoto(new InputFile(png, filename), { caption, reply_markup: openCard(ctx, id) });
}

/** The QR code of link `id` as a photo. */
export async function sendQr(ctx: BotContext, userId: number, id: number) {
  const link = await ownedLink(ctx.deps, userId, id);
  const png = await linkQrPng(ctx.deps, link);
  await ctx.replyWithPhoto(new InputFile(png, `qr-${link.code}.png`), { caption: ctx.t("qr-caption", { url: await trackingUrl(ctx.deps, link) }), reply_markup: openCard(ctx, id) });
}

/**
 * `/summary [period]`: the all-links card (default last 30 days). A link's Stats, Chart, Export and QR
 * are buttons of its card (bot/menus/link-stats.ts).
 */
export const analyticsFeature = new Composer<BotContext>();
analyticsFeature.chatType("private").command("summary", async (ctx) => {
  try {
    await ctx.replyWithChatAction("upload_photo");
    const { png, caption, filename } = await summaryImage(ctx.deps, ctx.user.id, { period: ctx.match.trim() || "30d" });
    await ctx.replyWithPhoto(new InputFile(png, filename), { caption });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply(ctx.t("warning", { text: problemText(ctx, e) }));
  }
});
