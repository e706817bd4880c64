import { Composer } from "grammy";
import type { InlineQueryResult } from "grammy/types";
import type { BotContext } from "../context";
import { upsertTelegramUser } from "../../core/accounts/users";
import { createLink } from "../../core/links/links";
import { listLinks } from "../../core/links/list";
import { AppError } from "../../core/errors";
import { readUrl } from "../url-text";

const article = (id: string, title: string, description: string, text: string): InlineQueryResult => ({
  type: "article", id, title, description, input_message_content: { message_text: text, link_preview_options: { is_disabled: true } },
});

/**
 * Inline mode: `@<bot> <url>` in any chat offers the user's short link for that URL (their existing
 * link for the same target, else a new one) and sends it into that chat. Answers are personal and not
 * cached, since each person gets their own link.
 */
export const inlineFeature = new Composer<BotContext>();

inlineFeature.on("inline_query", async (ctx) => {
  const query = ctx.inlineQuery.query.trim();
  const answer = (results: InlineQueryResult[]) => ctx.answerInlineQuery(results, { is_personal: true, cache_time: 0 });
  if (!query) return answer([]);
  const reading = readUrl(query, ctx.deps);
  if (!reading) return answer([article("hint", "Type or paste a link", "e.g. example.com/page", "Shorten links with me: type @" + ctx.me.username + " and a link.")]);
  if ("problem" in reading) return answer([article("problem", "This cannot be shortened", reading.problem, reading.problem)]);
  const user = upsertTelegramUser(ctx.deps, { id: ctx.from.id, username: ctx.from.username, firstName: ctx.from.first_name });
  try {
    const existing = listLinks(ctx.deps, user.id, { q: reading.url }).find((l) => l.original_url === reading.url);
    const link = existing ?? (await createLink(ctx.deps, user, { url: reading.url }));
    await answer([article(`link-${link.id}`, link.trackingUrl, `${existing ? "Your link" : "New link"} to ${reading.url}`, link.trackingUrl)]);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await answer([article("error", "Could not shorten this link", e.message, e.message)]);
  }
});
