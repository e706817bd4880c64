import { Composer } from "grammy";
import type { Chat, Message } from "grammy/types";
import type { UpdateContext } from "../context";
import { findUserByIdentity } from "../../core/accounts/users";
import { i18n } from "../i18n";
import { languageFor } from "../../core/i18n/translate";
import { migrateSource, upsertSource, type ChatInfo } from "../../core/tracking/sources";
import { ingestPost } from "../../core/tracking/ingest";
import type { CarriedUrl } from "../../core/tracking/link-watch";
import { migrateChannel, recordBotMembership } from "../../core/channels/ownership";
import { standingIn } from "../../core/channels/powers";
import type { Standing } from "../../core/channels/standing";
import { AppError } from "../../core/errors";
import { GENERAL_TOPIC, recordForumTopic, type TopicChange } from "../../core/tracking/team-chats";

/**
 * The bot as a keyword-tracking source: records every group, supergroup and channel it is added to
 * (my_chat_member, with the member count) and feeds their messages, channel posts and edits (text or
 * caption) to the matcher. The bot must be started with allowed_updates including my_chat_member,
 * channel_post and edited_channel_post (Telegram's default, which grammY uses
 * unless given a list, leaves out only chat_member and reactions, so the default works).
 */
export const trackingSourcesFeature = new Composer<UpdateContext>();

const ACTIVE = new Set(["member", "administrator", "creator"]);

function chatInfo(chat: Chat): ChatInfo | null {
  if (chat.type === "private") return null;
  return {
    chatId: String(chat.id),
    type: chat.type,
    title: chat.title ?? null,
    username: "username" in chat ? (chat.username ?? null) : null,
  };
}

trackingSourcesFeature.on("my_chat_member", async (ctx, next) => {
  const update = ctx.myChatMember;
  const info = chatInfo(update.chat);
  if (!info) return next();
  const member = update.new_chat_member;
  const isActive = ACTIVE.has(member.status) || (member.status === "restricted" && member.is_member);
  const isAdmin = member.status === "administrator" || member.status === "creator";
  const canInvite = member.status === "creator" || (member.status === "administrator" && member.can_invite_users);
  let memberCount: number | null | undefined;
  if (isActive) {
    try {
      memberCount = await ctx.api.getChatMemberCount(update.chat.id);
    } catch (e) {
      ctx.deps.log.warn(`tracking: no member count for chat ${info.chatId}: ${(e as Error).message}`);
    }
  }
  await upsertSource(ctx.deps, info, { isActive, ...(memberCount !== undefined ? { memberCount } : {}) });
  const by = update.from.is_bot ? null : { id: update.from.id, username: update.from.username ?? null, firstName: update.from.first_name };
  const wasAdmin = update.old_chat_member.status === "administrator" || update.old_chat_member.status === "creator";
  // the chat becomes the account of whoever made the bot an administrator only if they may invite users themselves
  const claim = by && isAdmin ? await claimantStanding(ctx, info.chatId, by.id) : null;
  await recordBotMembership(ctx.deps, info, claim?.holds ? by : null, { isAdmin, canInvite }, memberCount);
  // a forum's General topic is always there (its messages carry no thread id); the others come as they are created or changed
  if (isAdmin && update.chat.type === "supergroup" && update.chat.is_forum)
    await recordForumTopic(ctx.deps, info.chatId, GENERAL_TOPIC, { name: "General" });
  ctx.deps.log.info(`tracking: ${isActive ? "added to" : "removed from"} ${info.type} ${info.chatId} (${info.title ?? ""})`);
  const wasActive =
    ACTIVE.has(update.old_chat_member.status) || (update.old_chat_member.status === "restricted" && update.old_chat_member.is_member);
  if (by && (wasActive !== isActive || wasAdmin !== isAdmin))
    await tellWhoDidIt(ctx, by.id, update.from.language_code, info, { isActive, isAdmin, canInvite, claim });
  await next();
});

/** A claimant's standing, or "unconfirmed" when Telegram could not say (then the chat is not claimed). */
type Claim = Standing | { holds: false; reason: "unconfirmed" };

/** The standing of the person who made the bot an administrator. */
async function claimantStanding(ctx: UpdateContext, chatId: string, personId: number): Promise<Claim> {
  try {
    return await standingIn(ctx.deps, chatId, personId);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    ctx.deps.log.warn(`channels: ${chatId} not claimed for ${personId}: ${e.message}`);
    return { holds: false, reason: "unconfirmed" };
  }
}

/**
 * Tells the person who added, promoted or removed the bot what that means, and for a chat without
 * a public username that only the accounts owning it as a channel see its messages. They may never
 * have started the bot (then Telegram refuses the message, which is only logged).
 */
async function tellWhoDidIt(
  ctx: UpdateContext,
  userId: number,
  telegramLanguage: string | undefined,
  info: ChatInfo,
  state: { isActive: boolean; isAdmin: boolean; canInvite: boolean; claim: Claim | null },
) {
  // the person's own language: the one chosen in Settings, else their app's
  const user = await findUserByIdentity(ctx.deps, "telegram", String(userId));
  const language = languageFor(user?.language, telegramLanguage);
  const t = (key: string) =>
    i18n.t(language, key, {
      kind: info.type === "channel" ? "channel" : "group",
      title: Bun.escapeHTML(String(info.title ?? info.chatId)),
    });
  const claim = state.claim;
  let text = t(
    !state.isActive
      ? "source-removed"
      : info.username
        ? "source-added-public"
        : state.isAdmin && claim?.holds
          ? "source-admin-private"
          : "source-added-private",
  );
  if (state.isActive && state.isAdmin && claim && !claim.holds)
    text += `\n\n${i18n.t(language, "source-claim-refused", { reason: claim.reason })}`;
  else if (state.isActive && state.isAdmin && !state.canInvite) text += `\n\n${t("source-cannot-invite")}`;
  else if (state.isActive && state.isAdmin) text += `\n\n${t("source-invites-ready")}`;
  await ctx.api
    .sendMessage(userId, text)
    .catch((e) => ctx.deps.log.warn(`tracking: could not tell user ${userId} about ${info.chatId}: ${(e as Error).message}`));
}

trackingSourcesFeature.on("message:migrate_to_chat_id", async (ctx, next) => {
  await migrateSource(ctx.deps, String(ctx.chat.id), String(ctx.message.migrate_to_chat_id));
  await migrateChannel(ctx.deps, String(ctx.chat.id), String(ctx.message.migrate_to_chat_id));
  await next();
});

/** What a forum service message says of its topic, or null for any other message. */
function topicChange(msg: Message): TopicChange | null {
  if (msg.forum_topic_created) return { name: msg.forum_topic_created.name, closed: false };
  if (msg.forum_topic_edited) return msg.forum_topic_edited.name !== undefined ? { name: msg.forum_topic_edited.name } : null;
  if (msg.forum_topic_closed) return { closed: true };
  if (msg.forum_topic_reopened) return { closed: false };
  return null;
}

trackingSourcesFeature.on("message", async (ctx, next) => {
  const change = topicChange(ctx.message);
  if (change && ctx.message.message_thread_id !== undefined) {
    const chatId = String(ctx.chat.id);
    await recordForumTopic(ctx.deps, chatId, ctx.message.message_thread_id, change);
    if (ctx.message.chat.type === "supergroup" && ctx.message.chat.is_forum)
      await recordForumTopic(ctx.deps, chatId, GENERAL_TOPIC, { name: "General" });
  }
  await next();
});

/** The URLs behind the words of a message (`text_link` entities, with their place) and on its URL buttons, for watch_links. */
function carriedUrls(msg: Message): CarriedUrl[] {
  const out: CarriedUrl[] = [];
  for (const e of msg.entities ?? msg.caption_entities ?? [])
    if (e.type === "text_link") out.push({ url: e.url, start: e.offset, end: e.offset + e.length });
  for (const row of msg.reply_markup?.inline_keyboard ?? []) for (const b of row) if ("url" in b && b.url) out.push({ url: b.url });
  return out;
}

trackingSourcesFeature.on(["message", "edited_message", "channel_post", "edited_channel_post"], async (ctx, next) => {
  const msg: Message | undefined = ctx.msg;
  const info = msg && chatInfo(msg.chat);
  const text = msg?.text ?? msg?.caption;
  if (msg && info && text) {
    try {
      const edited = ctx.editedMessage !== undefined || ctx.editedChannelPost !== undefined;
      await ingestPost(ctx.deps, {
        chat: info,
        messageId: msg.message_id,
        text,
        forwarded: msg.forward_origin !== undefined,
        carriedUrls: carriedUrls(msg),
        edited,
      });
    } catch (e) {
      ctx.deps.log.error(`tracking: could not match message ${msg.message_id} of ${info.chatId}`, e);
    }
  }
  await next();
});
