/** The photos of a link's card and stats screen: its click chart and its QR code, each with a button back to the card. */
import { InputFile } from "grammy";
import type { BotContext } from "../context";
import { summaryImage } from "../../core/analytics/summary";
import { linkQrPng, trackingUrl } from "../../core/analytics/qr";
import { ownedLink } from "../../core/links/links";
import { targetButton } from "../../core/deep-link";

/** The button under a link's photo that sends its card below it. */
const openCard = (ctx: BotContext, id: number) => ({ inline_keyboard: [[targetButton(ctx.t("open-in-bot"), { kind: "link", id })]] });

/** The click chart of link `id` as a photo. */
export async function sendChart(ctx: BotContext, userId: number, id: number, period = "30d") {
  await ctx.replyWithChatAction("upload_photo");
  const { png, caption, filename } = await summaryImage(ctx.deps, { workspace: userId, person: ctx.user.id }, { linkId: id, period });
  await ctx.replyWithPhoto(new InputFile(png, filename), { caption: Bun.escapeHTML(caption), reply_markup: openCard(ctx, id) });
}

/** The QR code of link `id` as a photo. */
export async function sendQr(ctx: BotContext, userId: number, id: number) {
  const link = await ownedLink(ctx.deps, userId, id);
  const png = await linkQrPng(ctx.deps, link);
  await ctx.replyWithPhoto(new InputFile(png, `qr-${link.code}.png`), {
    caption: ctx.t("qr-caption", { url: Bun.escapeHTML(await trackingUrl(ctx.deps, link)) }),
    reply_markup: openCard(ctx, id),
  });
}
