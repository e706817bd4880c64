/**
 * The team-chat picker of the tracker dialog and the tracker's card: the person's groups and
 * channels where the bot is an administrator (and they still are one) as buttons, by name, then
 * the forum topics the bot knows there. Nobody types a chat id or a topic id.
 */
import type { Conversation } from "@grammyjs/conversations";
import type { BotContext, DialogContext } from "../context";
import { askChoice } from "./choice";
import { chatTopics, GENERAL_TOPIC, teamChats } from "../../core/tracking/team-chats";

type Convo = Conversation<BotContext, DialogContext>;

/** Where a tracker's notifications go: a chat, and a forum topic in it (null: the chat itself, or General). */
export interface TeamChatChoice {
  chatId: string;
  threadId: number | null;
}

/**
 * A typed answer to a choice: the choice's own word (`channels`, `both`, `bot`: the words the tracker's
 * options take when editing), its whole label, or the start of exactly one label. Null otherwise.
 */
export function readChoice(choices: [string, string][], typed: string): string | null {
  const t = typed.trim().toLowerCase();
  if (!t) return null;
  const exact = choices.find(([label, value]) => value.toLowerCase() === t || label.toLowerCase() === t);
  if (exact) return exact[1];
  const starting = choices.filter(([label]) => label.toLowerCase().startsWith(t));
  return starting.length === 1 ? starting[0]![1] : null;
}

/**
 * Asks which group or channel (then which topic, in a forum) a tracker notifies. "none" when the
 * person has no such chat (they are told how to get one), "cancel" on Cancel.
 */
export async function pickTeamChat(conversation: Convo, ctx: DialogContext): Promise<TeamChatChoice | "none" | "cancel"> {
  const chats = await conversation.external((o) => teamChats(o.deps, o.owner.id));
  if (!chats.length) {
    await ctx.reply(ctx.t("trk-no-team-chats"));
    return "none";
  }
  const chatChoices = chats.map((c): [string, string] => [`${c.type === "channel" ? "📢" : "👥"} ${c.title}`, c.chatId]);
  const chat = await askChoice(conversation, ctx, ctx.t("trk-pick-chat"), {
    choices: chatChoices,
    perRow: 1,
    // typed: the chat's title (or the start of it)
    read: (typed) =>
      readChoice(
        chats.map((c): [string, string] => [c.title, c.chatId]),
        typed,
      ),
    hint: ctx.t("trk-pick-hint"),
  });
  if (chat.value === "cancel") return "cancel";
  const chatId = chat.value;
  const topics = await conversation.external((o) => chatTopics(o.deps, o.owner.id, chatId));
  if (!topics.length) return { chatId, threadId: null };
  const topicChoices = topics.map((t): [string, string] => [
    t.threadId === null ? ctx.t("trk-topic-general") : `# ${t.name}`,
    String(t.threadId ?? GENERAL_TOPIC),
  ]);
  const topic = await askChoice(conversation, ctx, ctx.t("trk-pick-topic"), {
    choices: topicChoices,
    perRow: 1,
    read: (typed) =>
      readChoice(
        topics.map((t, i): [string, string] => [t.name, topicChoices[i]![1]]),
        typed,
      ),
    hint: ctx.t("trk-pick-hint"),
  });
  if (topic.value === "cancel") return "cancel";
  return { chatId, threadId: Number(topic.value) || null };
}
