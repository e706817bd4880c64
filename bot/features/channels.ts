import { Composer } from "grammy";
import type { UpdateContext } from "../context";
import { signedIn } from "../require-user";
import { recordMemberChange } from "../../core/channels/members";
import { approveAllRequests, channelWorkspace, recordJoinRequest, requestWorkspace, settleRequest } from "../../core/channels/requests";
import { AppError, NotFound } from "../../core/errors";
import { findUserByIdentity, getUser } from "../../core/accounts/users";
import { requireRole, roleIn } from "../../core/workspaces";
import { write } from "../audited";
import { recordStandingChange } from "../../core/channels/powers";
import { standingOf } from "../../core/channels/standing";
import { open } from "../menus/nav";
import { problemText } from "../problem";
import { channelsScreen } from "../menus/channels";
import { telegramRefusal } from "../telegram-refusal";

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
  if (e.code === "telegram_refused") return telegramRefusal(ctx, e.message);
  return problemText(ctx, e); // no longer runs the chat, or Telegram could not confirm it
}

/** The message the press came from: core updates it with the channel's notice. */
const pressedOf = (ctx: UpdateContext) => {
  const m = ctx.callbackQuery?.message;
  return m ? { chatId: m.chat.id, messageId: m.message_id } : undefined;
};

/**
 * Approve / Decline of a waiting request, pressed in a private chat or in the team group the request
 * was sent to: settled in the request's workspace by whoever pressed, if they may change things there.
 */
channelsFeature.callbackQuery(/^jr:(approve|decline):(\d+)$/, async (ctx) => {
  const action = ctx.match[1] as "approve" | "decline";
  const id = Number(ctx.match[2]);
  const person = ctx.user ?? (await findUserByIdentity(ctx.deps, "telegram", String(ctx.from.id)));
  if (!person) return ctx.answerCallbackQuery({ text: ctx.t("ws-group-start-first", { bot: ctx.me.username }), show_alert: true });
  try {
    const ownerId = await requestWorkspace(ctx.deps, id);
    const role = await roleIn(ctx.deps, person.id, ownerId);
    if (!role) throw new NotFound("Join request");
    requireRole(role, "editor");
    await write({ deps: ctx.deps, owner: await getUser(ctx.deps, ownerId), user: person }, settleRequest, id, action, pressedOf(ctx));
    await ctx.answerCallbackQuery({ text: ctx.t(action === "approve" ? "request-approved-toast" : "request-declined-toast") });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.answerCallbackQuery({ text: refusal(ctx, e), show_alert: true });
  }
});

channelsFeature.callbackQuery(/^jr:all:(\d+)$/, async (ctx) => {
  const channelId = Number(ctx.match[1]);
  const person = ctx.user ?? (await findUserByIdentity(ctx.deps, "telegram", String(ctx.from.id)));
  if (!person) return ctx.answerCallbackQuery({ text: ctx.t("ws-group-start-first", { bot: ctx.me.username }), show_alert: true });
  try {
    const ownerId = await channelWorkspace(ctx.deps, channelId);
    const role = await roleIn(ctx.deps, person.id, ownerId);
    if (!role) throw new NotFound("Channel");
    requireRole(role, "editor");
    const writer = { deps: ctx.deps, owner: await getUser(ctx.deps, ownerId), user: person };
    const { approved } = await write(writer, approveAllRequests, channelId, pressedOf(ctx));
    await ctx.answerCallbackQuery({ text: ctx.t("requests-approved-all-toast", { count: approved }) });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.answerCallbackQuery({ text: refusal(ctx, e), show_alert: true });
  }
});

const priv = channelsFeature.filter(signedIn).chatType("private");
priv.command("channels", (ctx) => open(ctx, channelsScreen, []));
