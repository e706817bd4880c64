import { Composer, InputFile } from "grammy";
import type { BotContext } from "../context";
import { AppError } from "../../core/errors";
import { summaryImage } from "../../core/analytics/summary";
import { PERIODS } from "../../core/analytics/range";
import { t } from "../../core/i18n/translate";
import { problemText, Refusal } from "../problem";

/**
 * `/summary [period]`: the all-links card (default last 30 days). A link's Stats, Chart, Export and QR
 * are buttons of its card (bot/menus/link-stats.ts).
 */
/** A period typed after /summary: the API's name (`7d`) or its typed form in either language (`7д`, `год`, `всё`). */
function readPeriod(ctx: BotContext, typed: string): string {
  const keys = Object.keys(PERIODS);
  const found = keys.find(
    (p) => p === typed || (["en", "ru"] as const).some((lang) => t(lang, `period-typed-${p}`) === typed.replace("все", "всё")),
  );
  if (found) return found;
  throw new Refusal("summary-period-refuse", { list: keys.map((p) => ctx.t(`period-typed-${p}`)).join(", ") });
}

export const analyticsFeature = new Composer<BotContext>();
analyticsFeature.chatType("private").command("summary", async (ctx) => {
  try {
    // a period it cannot read is refused before "sending photo…" is shown
    const period = readPeriod(ctx, ctx.match.trim().toLowerCase() || "30d");
    await ctx.replyWithChatAction("upload_photo");
    const { png, caption, filename } = await summaryImage(ctx.deps, { workspace: ctx.owner.id, person: ctx.user.id }, { period });
    await ctx.replyWithPhoto(new InputFile(png, filename), { caption: Bun.escapeHTML(caption) });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply(ctx.t("warning", { text: Bun.escapeHTML(problemText(ctx, e)) }));
  }
});
