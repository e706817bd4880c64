/**
 * One post, one placement: the user forwards or pastes an ad post (or sends /adpost first), says where
 * it runs and what it cost, and gets the post back rewritten for that placement (every link a new
 * tracking link, every link into one of their channels a new invite), ready to send, with Copy and
 * Share buttons. Two answers after the forward; a bad answer is refused with the rule and asked again.
 */
import type { Conversation } from "@grammyjs/conversations";
import { write } from "../audited";
import type { InlineKeyboardButton, InlineKeyboardMarkup, Message, MessageEntity } from "grammy/types";
import type { BotContext, DialogContext } from "../context";
import { problemText } from "../problem";
import { AppError } from "../../core/errors";
import { linksOf, planPost, type Post } from "../../core/ads/post";
import { parsePrice } from "../../core/placements/price";
import { createPlacement } from "../../core/placements/placements";
import { parseVenue, VENUE_MAX } from "../../core/placements/venue";
import { workspaceCurrency } from "../../core/workspaces";
import { targetButton } from "../../core/deep-link";
import { parseWhen } from "../../core/links/when";
import { readerOf } from "../i18n";

type Convo = Conversation<BotContext, DialogContext>;

export const AD_POST = "ad-post";
/** Telegram's limit for a copy button's text. */
const COPY_MAX = 256;
/** How much of the post the Share button carries (a button's URL must stay short; the whole post is above it to forward). */
const SHARE_TEXT_MAX = 300;

/**
 * A post as the dialog keeps it: text or caption, entities, buttons, and where a media post is
 * (copied, not re-sent), with its album (`group`, Telegram's media_group_id) when it is one.
 */
export type PostArg = Post & { media?: { chatId: number; messageId: number; group?: string } };

/** The post in a message, or null when it has no text or caption. */
export function postOf(msg: Message): PostArg | null {
  const buttons = msg.reply_markup as InlineKeyboardMarkup | undefined;
  if (msg.text !== undefined) return { text: msg.text, entities: msg.entities ?? [], ...(buttons ? { buttons } : {}) };
  if (msg.caption !== undefined)
    return {
      text: msg.caption,
      entities: msg.caption_entities ?? [],
      ...(buttons ? { buttons } : {}),
      media: { chatId: msg.chat.id, messageId: msg.message_id, ...(msg.media_group_id ? { group: msg.media_group_id } : {}) },
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

/**
 * The next typed answer; null when the user left the dialog (a command, or anything but text). The
 * other photos of the post's album (`group`) arrive as messages of their own: they are part of the
 * post, not an answer, and are passed over.
 */
async function answer(conversation: Convo, group: string | undefined): Promise<{ c: DialogContext; text: string } | null> {
  for (;;) {
    const c = await conversation.wait();
    if (group !== undefined && c.message?.media_group_id === group) continue;
    const text = c.message?.text?.trim();
    if (text === undefined || (text.startsWith("/") && text !== "/skip")) return null;
    return { c, text };
  }
}

/** Asks for the post itself (after /adpost). */
async function askPost(conversation: Convo, ctx: DialogContext): Promise<PostArg | null> {
  await ctx.reply(ctx.t("adpost-ask"));
  for (;;) {
    const c = await conversation.wait();
    const msg = c.message;
    if (!msg || msg.text?.startsWith("/")) return null;
    const found = postOf(msg);
    if (found && linksOf(found).length) return found;
    await c.reply(ctx.t("adpost-no-links"));
  }
}

/** True when `text` names a venue (a channel's @name or t.me link, or words for anything outside Telegram). */
function read(text: string): boolean {
  try {
    parseVenue(text);
    return true;
  } catch (e) {
    if (e instanceof AppError) return false;
    throw e;
  }
}

/** A date after the venue (`@bigchannel 30.11`, `VK group Cats 30.11.2026`): the venue and the day, read in the user's zone. */
function splitDate(text: string, now: Date, zone: string): { venue: string; publishAt?: string } {
  const m = /^(.*\S)\s+(\d{1,2}\.\d{1,2}(?:\.\d{4})?)$/.exec(text);
  // an ad is often noted after it ran: a day without a year is the nearest such day, not next year's
  const at = m ? parseWhen(m[2]!, now, zone, { nearest: true }) : null;
  return m && at && read(m[1]!) ? { venue: m[1]!, publishAt: at.toISOString() } : { venue: text };
}

/** Where the ad runs, and the day it runs when written after it: asked until it reads as a venue. */
async function askVenue(
  conversation: Convo,
  ctx: DialogContext,
  count: number,
  group: string | undefined,
): Promise<{ venue: string; publishAt?: string } | null> {
  await ctx.reply(ctx.t("adpost-ask-venue", { count }));
  const { now, zone } = await conversation.external((o) => ({ now: o.deps.clock.now().toISOString(), zone: readerOf(o).zone }));
  for (;;) {
    const got = await answer(conversation, group);
    if (!got) return null;
    if (got.text !== "/skip" && read(got.text)) return splitDate(got.text, new Date(now), zone);
    await got.c.reply(ctx.t("adpost-venue-rule", { max: VENUE_MAX }));
  }
}

/** A price as written, or null when it is not one. */
function readPrice(text: string, currency: string): { amount: number; currency: string } | null {
  try {
    return parsePrice(text, currency);
  } catch (e) {
    if (e instanceof AppError) return null;
    throw e;
  }
}

/** What it cost, read the way people write prices (a number alone in the account's currency); /skip for none. */
async function askPrice(
  conversation: Convo,
  ctx: DialogContext,
  group: string | undefined,
): Promise<{ amount: number; currency: string } | null | "left"> {
  const currency = await conversation.external(async (o) => (await workspaceCurrency(o.deps, o.owner.id)).effective);
  await ctx.reply(ctx.t("adpost-ask-price", { currency }));
  for (;;) {
    const got = await answer(conversation, group);
    if (!got) return "left";
    if (got.text === "/skip") return null;
    const price = readPrice(got.text, currency);
    if (price) return price;
    await got.c.reply(ctx.t("adpost-price-rule", { currency }));
  }
}

/** The buttons under the summary: copy the post (or its first link when the post is longer than a copy button holds), share it, open the placement. */
function summaryButtons(ctx: DialogContext, text: string, firstUrl: string | undefined, id: number): InlineKeyboardButton[][] {
  const copy = text.length <= COPY_MAX ? text : firstUrl;
  const row: InlineKeyboardButton[] = [];
  if (copy) row.push({ text: ctx.t("adpost-copy"), copy_text: { text: copy } });
  if (firstUrl)
    row.push({
      text: ctx.t("adpost-share"),
      url: `https://t.me/share/url?url=${encodeURIComponent(firstUrl)}&text=${encodeURIComponent(text.slice(0, SHARE_TEXT_MAX))}`,
    });
  return [row, [targetButton(ctx.t("adpost-open"), { kind: "placement", id })]];
}

/**
 * Why a link of the post was left as it was, as a key of the language files: core states it in
 * English (its own rules' sentences), read here into the reader's language; a rule not listed here
 * reads as "cannot be a target".
 */
const SKIP_REASONS: [RegExp, string][] = [
  [/^already a short link/, "adpost-skip-own-link"],
  [/short links/, "adpost-skip-own-link"],
  [/user name or password/, "adpost-skip-credentials"],
  [/backslash/, "adpost-skip-backslash"],
  [/localhost|loopback/, "adpost-skip-loopback"],
  [/spaces/, "adpost-skip-spaces"],
  [/at most \d+ characters/, "adpost-skip-too-long"],
];
const skipReasonKey = (reason: string) => SKIP_REASONS.find(([re]) => re.test(reason))?.[1] ?? "adpost-skip-not-target";

export async function adPostConversation(conversation: Convo, ctx: DialogContext, given?: PostArg) {
  const post = given ?? (await askPost(conversation, ctx));
  if (!post) return conversation.halt({ next: true });
  // what would refuse the placement anyway (the plan's room for its new links, links that cannot be
  // tracked) is said now, before two questions are asked for nothing
  const early = await conversation.external(async (o) => {
    try {
      await planPost(o.deps, o.owner, { text: post.text, entities: post.entities, ...(post.buttons ? { buttons: post.buttons } : {}) });
      return null;
    } catch (e) {
      if (e instanceof AppError) return problemText(o, e);
      throw e;
    }
  });
  if (early !== null) {
    await ctx.reply(ctx.t("warning", { text: Bun.escapeHTML(early) }));
    return conversation.halt({ next: true });
  }
  const group = post.media?.group;
  const venue = await askVenue(conversation, ctx, linksOf(post).length, group);
  if (venue === null) return conversation.halt({ next: true });
  const cost = await askPrice(conversation, ctx, group);
  if (cost === "left") return conversation.halt({ next: true });
  const result = await conversation.external(async (o) => {
    try {
      const body = {
        ...venue,
        ...(cost ? { cost } : {}),
        post: { text: post.text, entities: post.entities, ...(post.buttons ? { buttons: post.buttons } : {}) },
      };
      const made = await write(o, createPlacement, body);
      return {
        made: {
          id: made.id,
          name: made.name,
          post: made.post!,
          links: made.links.length,
          invites: made.invites.length,
          // the address Share sends and a long post's Copy holds: a new link, else a new invite (an ad of the user's own channel)
          first: made.links[0]?.trackingUrl ?? made.invites[0]?.invite_link,
          skipped: made.skipped ?? [],
        },
      };
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      return { problem: problemText(o, e) };
    }
  });
  if ("problem" in result) return void (await ctx.reply(ctx.t("warning", { text: Bun.escapeHTML(result.problem!) })));
  const { made } = result;
  const copy = made.post;
  const markup = copy.buttons ? { reply_markup: copy.buttons } : {};
  if (post.media)
    await ctx.api.copyMessage(ctx.chat!.id, post.media.chatId, post.media.messageId, {
      caption: copy.text,
      caption_entities: (copy.entities ?? []) as MessageEntity[],
      ...markup,
    });
  else await ctx.reply(copy.text, { entities: (copy.entities ?? []) as MessageEntity[], ...markup });
  const esc = Bun.escapeHTML;
  const lines = [ctx.t("adpost-made", { name: esc(made.name), links: made.links, invites: made.invites })];
  // links left as they were (the user's own short links, what cannot be a target), with why
  if (made.skipped.length)
    lines.push("", ctx.t("adpost-skipped"), ...made.skipped.map((k) => `• ${esc(k.url)}: ${esc(ctx.t(skipReasonKey(k.reason)))}`));
  await ctx.reply(lines.join("\n"), {
    link_preview_options: { is_disabled: true },
    reply_markup: { inline_keyboard: summaryButtons(ctx, copy.text, made.first, made.id) },
  });
}
