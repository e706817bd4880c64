import type { Context } from "grammy";
import type { Conversation } from "@grammyjs/conversations";
import type { BotContext, DialogContext } from "../context";
import { createTracker, getTracker, updateTracker, type TrackerInput } from "../../core/tracking/trackers";
import { AppError } from "../../core/errors";
import { TRACKER_OPTIONS } from "../menus/tracker-options";
import { trackerScreen } from "../menus/tracking";
import { open } from "../menus/nav";
import { answerOption } from "./option-answer";
import { askChoice } from "./choice";

type Convo = Conversation<BotContext, DialogContext>;

const CANCELLED = "Cancelled. Nothing was created.";

/** Waits for a text answer; /cancel ends the conversation, /skip answers null. */
async function askText(conversation: Convo, ctx: DialogContext, question: string, skippable = false): Promise<string | null> {
  await ctx.reply(`${question}\n\n${skippable ? "/skip to leave it out, " : ""}/cancel to stop.`);
  const answer = await conversation.waitFor("message:text", { otherwise: (c) => c.reply("Please answer with text, or /cancel.") });
  const text = answer.message.text.trim();
  if (text === "/cancel") {
    await answer.reply(CANCELLED);
    return conversation.halt();
  }
  if (skippable && text === "/skip") return null;
  return text;
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

/** Offers `choices` as buttons (or typed: see readChoice); Cancel ends the dialog. */
async function askOption(conversation: Convo, ctx: DialogContext, question: string, choices: [string, string][]): Promise<string> {
  const read = (typed: string) => readChoice(choices, typed);
  const { c, value } = await askChoice(conversation, ctx, question, { choices, perRow: 1, read, hint: `Please press one of the buttons above, or type ${choices.map(([, v]) => `“${v}”`).join(", ")}; /cancel stops.` });
  if (value === "cancel") {
    await c.reply(CANCELLED);
    return conversation.halt();
  }
  return value;
}

/** Splits an answer into entries at `separators`; null for /skip. */
const list = (s: string | null, separators: RegExp) => (s ? s.split(separators).map((w) => w.trim()).filter(Boolean) : null);
/** Minus words may be phrases ("в кредит"): only commas and line breaks separate them. */
const COMMAS = /[,\n]+/;
/** Source references contain no spaces or commas. */
const COMMAS_OR_SPACES = /[\s,]+/;

/**
 * /track: asks keyword, exact matching, minus words, where to search, sources and how to notify,
 * then creates the tracker through core (the same validation and plan limit as the API).
 */
export async function trackConversation(conversation: Convo, ctx: DialogContext): Promise<void> {
  const keyword = await askText(conversation, ctx, "🔎 New keyword tracker.\nSend the keyword or phrase to look for in channels and chats.");
  const exact = await askOption(conversation, ctx, "Match whole words only?\n(Whole words: «rust» does not match «trusted».)", [["Whole words", "exact"], ["Anywhere in the text", "substring"]]);
  const minus = await askText(conversation, ctx, "Minus words: a post containing any of them is ignored. Send them separated by commas.", true);
  const where = await askOption(conversation, ctx, "Where should I look?", [["Channels and chats", "both"], ["Only channels", "channels"], ["Only chats", "chats"]]);
  const sources = await askText(conversation, ctx, "Only specific sources? Send @usernames, chat ids or t.me links separated by spaces.", true);
  const via = await askOption(conversation, ctx, "How should I notify you?", [["Message from this bot", "bot"], ["Webhook (HTTP POST)", "webhook"]]);
  const webhook = via === "webhook" ? await askText(conversation, ctx, "Send the webhook URL (it must answer 200 to a test request).") : null;

  const input: TrackerInput = {
    name: Array.from(keyword!).slice(0, 100).join(""), // 100 characters (code points), as core counts them
    keyword: keyword!,
    exact_match: exact === "exact",
    minus_words: list(minus, COMMAS),
    search_channels: where !== "chats",
    search_chats: where !== "channels",
    include_sources: list(sources, COMMAS_OR_SPACES),
    notify_via: via === "webhook" ? "webhook" : "bot",
    webhook_url: webhook,
  };
  const result = await conversation.external(async (outside: BotContext) => {
    if (!outside.user) return { error: "Please talk to me in a private chat." };
    try {
      const row = await createTracker(outside.deps, outside.user.id, input);
      return { id: row.id };
    } catch (e) {
      if (e instanceof AppError) return { error: e.message };
      throw e;
    }
  });
  if ("error" in result) {
    await ctx.reply(`❌ ${result.error}\n\nSend /track to try again.`);
    return;
  }
  await conversation.external((o) => open(o, trackerScreen, [result.id], `✅ Tracker created: «${Bun.escapeHTML(input.keyword!)}». I will tell you when it appears in a chat or channel I am in. Add me to more channels or groups to widen the search: /trackguide`));
}

/** One option of tracker `id`: the question, then the answer saved through core (or its problem, and another try). */
export async function trackerOptionConversation(conversation: Convo, ctx: DialogContext, id: number, index: number) {
  const option = TRACKER_OPTIONS[index];
  if (!option) return;
  await answerOption(conversation, ctx, option, async (o, text) => {
    const t = await getTracker(o.deps, o.user!.id, id);
    await updateTracker(o.deps, o.user!.id, id, text === "/clear" ? option.clear! : option.parse(text, t));
    await open(o, trackerScreen, [id], `✅ Saved: ${option.label.replace(/^\S+\s/, "")}.`);
  });
}
