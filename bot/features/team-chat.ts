import { Composer } from "grammy";
import type { UpdateContext } from "../context";
import { findUserByIdentity } from "../../core/accounts/users";
import { AppError } from "../../core/errors";
import { languageFor } from "../../core/i18n/translate";
import { forgetTeamChat, moveTeamChat } from "../../core/team-chat/chats";
import { connectTeamChat, disconnectTeamChat } from "../../core/workspaces/team-chat";
import { actingIn } from "../workspace";
import { problemText } from "../problem";

/**
 * The team group: `/connect` sent in a group (in a forum, inside the topic to use) by an owner or
 * admin of the team workspace they act in (chosen in the bot's Settings), who is also one of the
 * group's administrators, makes it the destination of that workspace's reports, alerts, tracker
 * notifications and join requests (core/team-chat/destinations.ts). `/disconnect` there undoes it.
 * A group the bot leaves, or that becomes a supergroup, is followed.
 */
export const teamChatFeature = new Composer<UpdateContext>();
const groups = teamChatFeature.chatType(["group", "supergroup"]);

/** Telegram's sender of an anonymous administrator's messages: who it is cannot be known. */
const ANONYMOUS_ADMIN = 1087968824;

/**
 * The person behind a command in a group and the workspace they act in, or null after telling why
 * not (an anonymous administrator, someone who never started the bot, a personal workspace).
 */
async function teamOf(
  ctx: UpdateContext & { chat: { id: number }; from: { id: number; language_code?: string } },
  answer: (key: string) => Promise<unknown>,
) {
  if (ctx.from.id === ANONYMOUS_ADMIN || ctx.msg?.sender_chat) return void (await answer("ws-connect-anonymous"));
  const person = await findUserByIdentity(ctx.deps, "telegram", String(ctx.from.id));
  if (!person) return void (await answer("ws-group-start-first"));
  // answered in the person's language (the bot's, chosen in Settings), as the group's messages will be
  await ctx.i18n.useLocale(languageFor(person.language, ctx.from.language_code));
  const { owner } = await actingIn(ctx.deps, person);
  if (owner.kind !== "team") return void (await answer("ws-connect-personal"));
  // the group's own administrators only: a member of the team who is a mere member here cannot take the group over
  const member = await ctx.api.getChatMember(ctx.chat.id, ctx.from.id);
  if (member.status !== "creator" && member.status !== "administrator") return void (await answer("ws-connect-not-admin"));
  return { person, owner };
}

groups.command(["connect", "disconnect"], async (ctx) => {
  const msg = ctx.msg;
  // answered in the topic the command came from (reply_parameters keeps the thread)
  const answer = (key: string, vars: Record<string, string> = {}) =>
    ctx.reply(ctx.t(key, { bot: ctx.me.username, ...vars }), { reply_parameters: { message_id: msg.message_id } });
  const found = await teamOf(ctx, answer);
  if (!found) return;
  const { person, owner } = found;
  const workspace = Bun.escapeHTML(owner.name ?? "");
  try {
    if (ctx.message?.text?.startsWith("/disconnect")) {
      const dropped = await disconnectTeamChat(ctx.deps, person.id, owner.id);
      return void (await answer(dropped ? "ws-disconnected" : "ws-not-connected", { workspace }));
    }
    // a forum's topic when the command was sent inside one; the group itself (its General topic) otherwise
    const threadId = ctx.chat.type === "supergroup" && ctx.chat.is_forum && msg.is_topic_message ? (msg.message_thread_id ?? null) : null;
    await connectTeamChat(ctx.deps, person.id, owner.id, {
      chatId: String(ctx.chat.id),
      threadId,
      title: ctx.chat.title ?? null,
      language: languageFor(person.language, ctx.from.language_code),
    });
    await answer(threadId === null ? "ws-connected" : "ws-connected-topic", { workspace });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply(Bun.escapeHTML(problemText(ctx, e)), { reply_parameters: { message_id: msg.message_id } });
  }
});

// the bot removed from a group: nothing more can be posted there
teamChatFeature.on("my_chat_member", async (ctx, next) => {
  const status = ctx.myChatMember.new_chat_member.status;
  if (ctx.chat.type !== "private" && (status === "left" || status === "kicked"))
    await forgetTeamChat(ctx.deps.asyncDb, String(ctx.chat.id));
  await next();
});

teamChatFeature.on("message:migrate_to_chat_id", async (ctx, next) => {
  await moveTeamChat(ctx.deps.asyncDb, String(ctx.chat.id), String(ctx.message.migrate_to_chat_id));
  await next();
});
