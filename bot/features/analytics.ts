import { Composer, InputFile } from "grammy";
import type { BotContext } from "../context";
import { AppError } from "../../core/errors";
import { summaryImage } from "../../core/analytics/summary";
import { parsePeriod } from "../../core/analytics/range";
import { problemText } from "../problem";

/**
 * `/summary [period]`: the all-links card (default last 30 days). A link's Stats, Chart, Export and QR
 * are buttons of its card (bot/menus/link-stats.ts).
 */
export const analyticsFeature = new Composer<BotContext>();
analyticsFeature.chatType("private").command("summary", async (ctx) => {
  try {
    // a period it cannot read is refused before "sending photo…" is shown
    const period = parsePeriod(ctx.match.trim() || "30d");
    await ctx.replyWithChatAction("upload_photo");
    const { png, caption, filename } = await summaryImage(ctx.deps, ctx.user.id, { period });
    await ctx.replyWithPhoto(new InputFile(png, filename), { caption });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply(ctx.t("warning", { text: problemText(ctx, e) }));
  }
});
