import { InlineKeyboard, type Context } from "grammy";
import type { Conversation } from "@grammyjs/conversations";
import type { BotContext } from "../context";
import { createTracker, type TrackerInput } from "../../core/tracking/trackers";
import { AppError } from "../../core/errors";

type Convo = Conversation<BotContext, Context>;

const CANCELLED = "Cancelled. Nothing was created.";

/** Waits for a text answer; /cancel ends the conversation, /skip answers null. */
async function askText(conversation: Convo, ctx: Context, question: string, skippable = false): Promise<string | null> {
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

/** Offers buttons and waits for one of them (callback data `tr:c:<value>`). */
async function askChoice(conversation: Convo, ctx: Context, question: string, choices: [string, string][]): Promise<string> {
  const keyboard = new InlineKeyboard();
  for (const [label, value] of choices) keyboard.text(label, `tr:c:${value}`).row();
  keyboard.text("Cancel", "tr:c:cancel");
  await ctx.reply(question, { reply_markup: keyboard });
  const answer = await conversation.waitForCallbackQuery(/^tr:c:/, { otherwise: (c) => c.reply("Please press one of the buttons above.") });
  await answer.answerCallbackQuery();
  const value = answer.callbackQuery.data.slice(5);
  if (value === "cancel") {
    await answer.reply(CANCELLED);
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
export async function trackConversation(conversation: Convo, ctx: Context): Promise<void> {
  const keyword = await askText(conversation, ctx, "🔎 New keyword tracker.\nSend the keyword or phrase to look for in channels and chats.");
  const exact = await askChoice(conversation, ctx, "Match whole words only?\n(Whole words: «rust» does not match «trusted».)", [["Whole words", "exact"], ["Anywhere in the text", "substring"]]);
  const minus = await askText(conversation, ctx, "Minus words: a post containing any of them is ignored. Send them separated by commas.", true);
  const where = await askChoice(conversation, ctx, "Where should I look?", [["Channels and chats", "both"], ["Only channels", "channels"], ["Only chats", "chats"]]);
  const sources = await askText(conversation, ctx, "Only specific sources? Send @usernames, chat ids or t.me links separated by spaces.", true);
  const via = await askChoice(conversation, ctx, "How should I notify you?", [["Message from this bot", "bot"], ["Webhook (HTTP POST)", "webhook"]]);
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
  await ctx.reply(`✅ Tracker created: «${input.keyword}». I will tell you when it appears in a chat or channel I am in.\n\nAdd me to more channels or groups to widen the search: /trackguide`, {
    reply_markup: new InlineKeyboard().text("My trackers", "tr:list").text(`Open tracker`, `tr:show:${result.id}`),
  });
}
