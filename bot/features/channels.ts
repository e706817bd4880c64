import { Composer } from "grammy";
import type { UpdateContext } from "../context";
import { signedIn } from "../require-user";
import { recordMemberChange } from "../../core/channels/members";
import { approveAllRequests, recordJoinRequest, settleRequest } from "../../core/channels/requests";
import { AppError } from "../../core/errors";
import { recordStandingChange } from "../../core/channels/powers";
import { standingOf } from "../../core/channels/standing";
import { open } from "../menus/nav";
import { problemText } from "../problem";
import { channelsScreen } from "../menus/channels";

/**
 * Channels in the bot: joins and leaves from `chat_member` updates (and, for the people who run a
 * chat through the bot, the change of their standing there), join requests from
 * `chat_join_request`, and the buttons of a channel's message about its waiting requests (Approve /
 * Decline one, Approve all). The screens are in bot/menus/channels.ts.
 */
export const channelsFeature = new Composer<UpdateContext>();

channelsFeature.on("chat_member", async (ctx, next) => {
  const u = ctx.chatMember;
  if (u.chat.type === "private" || u.new_chat_member.user.is_bot) return next();
  const person = u.new_chat_member.user;
  // a change of someone who runs the chat through the bot: what they may do there changes at once
  await recordStandingChange(ctx.deps, {
    chatId: String(u.chat.id),
    personId: person.id,
    was: standingOf(u.old_chat_member),
    is: standingOf(u.new_chat_member),
  });
  await recordMemberChange(ctx.deps, {
    chatId: String(u.chat.id),
    member: { id: person.id, username: person.username ?? null, firstName: person.first_name },
    oldStatus: u.old_chat_member.status,
    oldIsMember: u.old_chat_member.status === "restricted" ? u.old_chat_member.is_member : undefined,
    newStatus: u.new_chat_member.status,
    newIsMember: u.new_chat_member.status === "restricted" ? u.new_chat_member.is_member : undefined,
    date: u.date,
    inviteLink: u.invite_link?.invite_link ?? null,
    viaJoinRequest: u.via_join_request ?? false,
    viaFolder: u.via_chat_folder_invite_link ?? false,
  });
  await next();
});

channelsFeature.on("chat_join_request", async (ctx, next) => {
  const r = ctx.chatJoinRequest;
  await recordJoinRequest(ctx.deps, {
    chatId: String(r.chat.id),
    member: { id: r.from.id, username: r.from.username ?? null, firstName: r.from.first_name },
    userChatId: r.user_chat_id,
    date: r.date,
    inviteLink: r.invite_link?.invite_link ?? null,
  });
  await next();
});

/** What a press on a join-request message is told when settling fails. */
function refusal(ctx: UpdateContext, e: AppError): string {
  if (e.code === "already_settled") return ctx.t("request-settled");
  if (e.code === "not_found") return ctx.t("request-gone");
  if (e.code === "telegram_refused") return ctx.t("telegram-refused", { reason: e.message });
  return problemText(ctx, e); // no longer runs the chat, or Telegram could not confirm it
}

/** The message the press came from: core updates it with the channel's notice. */
const pressedOf = (ctx: UpdateContext) => {
  const m = ctx.callbackQuery?.message;
  return m ? { chatId: m.chat.id, messageId: m.message_id } : undefined;
};

channelsFeature.callbackQuery(/^jr:(approve|decline):(\d+)$/, async (ctx) => {
  const action = ctx.match[1] as "approve" | "decline";
  if (!ctx.user) return ctx.answerCallbackQuery();
  try {
    await settleRequest(ctx.deps, ctx.user.id, Number(ctx.match[2]), action, pressedOf(ctx));
    await ctx.answerCallbackQuery({ text: ctx.t(action === "approve" ? "request-approved-toast" : "request-declined-toast") });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.answerCallbackQuery({ text: refusal(ctx, e), show_alert: true });
  }
});

channelsFeature.callbackQuery(/^jr:all:(\d+)$/, async (ctx) => {
  if (!ctx.user) return ctx.answerCallbackQuery();
  try {
    const { approved } = await approveAllRequests(ctx.deps, ctx.user.id, Number(ctx.match[1]), pressedOf(ctx));
    await ctx.answerCallbackQuery({ text: ctx.t("requests-approved-all-toast", { count: approved }) });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.answerCallbackQuery({ text: refusal(ctx, e), show_alert: true });
  }
});

const priv = channelsFeature.filter(signedIn).chatType("private");
priv.command("channels", (ctx) => open(ctx, channelsScreen, []));
