/**
 * An ad post in, an ad post out: the user forwards or pastes a post (or sends /adpost first), names
 * the placement, and gets the same post back with every link replaced by a new tracking link tagged
 * with that placement, ready to send to the channel that runs the ad.
 */
import type { Conversation } from "@grammyjs/conversations";
import type { Context } from "grammy";
import type { InlineKeyboardMarkup, Message, MessageEntity } from "grammy/types";
import type { BotContext, DialogContext } from "../context";
import { AppError } from "../../core/errors";
import { linksOf, PLACEMENT_MAX, trackPost, type Post } from "../../core/ads/post";

type Convo = Conversation<BotContext, DialogContext>;

export const AD_POST = "ad-post";

/** A post as the dialog keeps it: text or caption, entities, buttons, and where a media post is (copied, not re-sent). */
export type PostArg = Post & { media?: { chatId: number; messageId: number } };

/** The post in a message, or null when it has no text or caption. */
export function postOf(msg: Message): PostArg | null {
  const buttons = msg.reply_markup as InlineKeyboardMarkup | undefined;
  if (msg.text !== undefined) return { text: msg.text, entities: msg.entities ?? [], ...(buttons ? { buttons } : {}) };
  if (msg.caption !== undefined)
    return { text: msg.caption, entities: msg.caption_entities ?? [], ...(buttons ? { buttons } : {}), media: { chatId: msg.chat.id, messageId: msg.message_id } };
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

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export async function adPostConversation(conversation: Convo, ctx: DialogContext, given?: PostArg) {
  let post = given;
  if (!post) {
    await ctx.reply("Forward the ad post here, or paste its text with the links. /cancel stops.");
    for (;;) {
      const c = await conversation.wait();
      const msg = c.message;
      if (!msg || msg.text?.startsWith("/")) return conversation.halt({ next: true });
      const found = postOf(msg);
      if (found && linksOf(found).length) {
        post = found;
        break;
      }
      await c.reply("That post has no links to track. Forward a post with links, or /cancel.");
    }
  }
  const count = linksOf(post).length;
  await ctx.reply(
    `This post has ${plural(count, "link", "different links")}. Where will it run? Send a placement name, for example the channel and date: <code>@bigchannel 25.11</code>.\n` +
      `Each link becomes a new tracking link tagged with that name, so the ad's clicks add up under it. /cancel stops.`,
    { parse_mode: "HTML" },
  );
  for (;;) {
    const c = await conversation.wait();
    const placement = c.message?.text?.trim();
    if (placement === undefined || placement.startsWith("/")) return conversation.halt({ next: true });
    const result = await conversation.external(async (o) => {
      try {
        return { done: await trackPost(o.deps, o.user!, post, placement) };
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        return { problem: e.code === "invalid_placement" ? `A placement name is 1 to ${PLACEMENT_MAX} characters.` : e.message, again: e.code === "invalid_placement" };
      }
    });
    if ("problem" in result) {
      await c.reply(result.again ? `${result.problem} Send another, or /cancel.` : `⚠️ ${result.problem}`);
      if (result.again) continue;
      return;
    }
    const { done } = result;
    const copy = done.post;
    const markup = copy.buttons ? { reply_markup: copy.buttons } : {};
    if (post.media) await c.api.copyMessage(c.chat!.id, post.media.chatId, post.media.messageId, { caption: copy.text, caption_entities: copy.entities as MessageEntity[], ...markup });
    else await c.reply(copy.text, { entities: copy.entities, ...markup });
    const lines = [
      `✅ ${plural(done.links.length, "tracking link", "tracking links")} for <b>${Bun.escapeHTML(done.tag.name)}</b>. Forward the post above to the channel's admin.`,
      `Its clicks: /links, tag «${Bun.escapeHTML(done.tag.name)}».`,
    ];
    if (done.skipped.length) lines.push("", "Left as they were:", ...done.skipped.map((s) => `• ${Bun.escapeHTML(s.url)}: ${Bun.escapeHTML(s.reason)}`));
    await c.reply(lines.join("\n"), { parse_mode: "HTML", link_preview_options: { is_disabled: true } });
    return;
  }
}
