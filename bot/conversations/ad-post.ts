/**
 * An ad post in, an ad post out: the user forwards or pastes a post (or sends /adpost first), names
 * the placement, and gets the same post back with every link replaced by a new tracking link tagged
 * with that placement, ready to send to the channel that runs the ad.
 */
import type { Conversation } from "@grammyjs/conversations";
import type { InlineKeyboardMarkup, Message, MessageEntity } from "grammy/types";
import type { BotContext, DialogContext } from "../context";
import { problemText } from "../problem";
import { AppError } from "../../core/errors";
import { linksOf, type Post } from "../../core/ads/post";
import { createPlacement } from "../../core/placements/placements";
import { NAME_MAX } from "../../core/placements/venue";

type Convo = Conversation<BotContext, DialogContext>;

export const AD_POST = "ad-post";

/** A post as the dialog keeps it: text or caption, entities, buttons, and where a media post is (copied, not re-sent). */
export type PostArg = Post & { media?: { chatId: number; messageId: number } };

/** The post in a message, or null when it has no text or caption. */
export function postOf(msg: Message): PostArg | null {
  const buttons = msg.reply_markup as InlineKeyboardMarkup | undefined;
  if (msg.text !== undefined) return { text: msg.text, entities: msg.entities ?? [], ...(buttons ? { buttons } : {}) };
  if (msg.caption !== undefined)
    return {
      text: msg.caption,
      entities: msg.caption_entities ?? [],
      ...(buttons ? { buttons } : {}),
      media: { chatId: msg.chat.id, messageId: msg.message_id },
    };
  return null;
}

/**
 * A message is an ad post to copy when it has several different links, or when it is a forwarded
 * post with any link (a single pasted URL is a plain new link).
 */
export function isAdPost(msg: Message): boolean {
  const post = postOf(msg);
  if (!post) return false;
  const n = linksOf(post).length;
  return n > 1 || (n > 0 && msg.forward_origin !== undefined);
}

export async function adPostConversation(conversation: Convo, ctx: DialogContext, given?: PostArg) {
  let post = given;
  if (!post) {
    await ctx.reply(ctx.t("adpost-ask"));
    for (;;) {
      const c = await conversation.wait();
      const msg = c.message;
      if (!msg || msg.text?.startsWith("/")) return conversation.halt({ next: true });
      const found = postOf(msg);
      if (found && linksOf(found).length) {
        post = found;
        break;
      }
      await c.reply(ctx.t("adpost-no-links"));
    }
  }
  const count = linksOf(post).length;
  await ctx.reply(ctx.t("adpost-ask-placement", { count }), { parse_mode: "HTML" });
  for (;;) {
    const c = await conversation.wait();
    const placement = c.message?.text?.trim();
    if (placement === undefined || placement.startsWith("/")) return conversation.halt({ next: true });
    const result = await conversation.external(async (o) => {
      try {
        return { done: await createPlacement(o.deps, o.user, { venue: placement, name: placement, post }) };
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        return {
          problem: e.details?.some((d) => d.field === "name" || d.field === "venue")
            ? o.t("adpost-placement-length", { max: NAME_MAX })
            : problemText(o, e),
          again: e.details?.some((d) => d.field === "name" || d.field === "venue") ?? false,
        };
      }
    });
    if ("problem" in result) {
      await c.reply(ctx.t(result.again ? "adpost-send-another" : "warning", { problem: result.problem!, text: result.problem! }));
      if (result.again) continue;
      return;
    }
    const { done } = result;
    const copy = done.post!;
    const markup = copy.buttons ? { reply_markup: copy.buttons } : {};
    if (post.media)
      await c.api.copyMessage(c.chat!.id, post.media.chatId, post.media.messageId, {
        caption: copy.text,
        caption_entities: copy.entities as MessageEntity[],
        ...markup,
      });
    else await c.reply(copy.text, { entities: copy.entities, ...markup });
    const lines = [
      ctx.t("adpost-done", { count: done.links.length + done.invites.length, tag: Bun.escapeHTML(done.name) }),
      ctx.t("adpost-clicks", { tag: Bun.escapeHTML(done.name) }),
    ];
    if (done.skipped?.length)
      lines.push("", ctx.t("adpost-skipped"), ...done.skipped.map((s) => `• ${Bun.escapeHTML(s.url)}: ${Bun.escapeHTML(s.reason)}`));
    await c.reply(lines.join("\n"), { parse_mode: "HTML", link_preview_options: { is_disabled: true } });
    return;
  }
}
