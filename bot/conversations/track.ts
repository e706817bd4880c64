import type { Conversation } from "@grammyjs/conversations";
import type { BotContext, DialogContext } from "../context";
import { write } from "../audited";
import { createTracker, getTracker, updateTracker, type TrackerInput } from "../../core/tracking/trackers";
import { AppError } from "../../core/errors";
import { TRACKER_OPTIONS, type TrackerOption } from "../menus/tracker-options";
import { trackerScreen } from "../menus/tracking";
import { open } from "../menus/nav";
import { answerOption } from "./option-answer";
import { askChoice } from "./choice";
import { problemText } from "../problem";
import { parseQuery } from "../../core/tracking/query";
import { describeQuery, looksLikeQuery, queryProblemText } from "./query-words";
import { pickTeamChat, readChoice, type TeamChatChoice } from "./team-chat";

type Convo = Conversation<BotContext, DialogContext>;

const CANCELLED = "dialog-cancelled-nothing-created";

/** Waits for a text answer; /cancel ends the conversation, /skip answers null. */
async function askText(conversation: Convo, ctx: DialogContext, question: string, skippable = false): Promise<string | null> {
  await ctx.reply(ctx.t(skippable ? "track-ask-skippable" : "track-ask", { question }));
  const answer = await conversation.waitFor("message:text", { otherwise: (c) => c.reply(ctx.t("track-text-please")) });
  const text = answer.message.text.trim();
  if (text === "/cancel") {
    await answer.reply(ctx.t(CANCELLED));
    return conversation.halt();
  }
  if (skippable && text === "/skip") return null;
  return text;
}

/** Offers `choices` as buttons (or typed: see readChoice); Cancel ends the dialog. */
async function askOption(conversation: Convo, ctx: DialogContext, question: string, choices: [string, string][]): Promise<string> {
  const read = (typed: string) => readChoice(choices, typed);
  const { c, value } = await askChoice(conversation, ctx, question, {
    choices,
    perRow: 1,
    read,
    hint: ctx.t("track-choice-hint", { words: choices.map(([, v]) => `“${v}”`).join(", ") }),
  });
  if (value === "cancel") {
    await c.reply(ctx.t(CANCELLED));
    return conversation.halt();
  }
  return value;
}

/** Cyrillic letters: a keyword with them gets word forms by default (Russian inflects heavily). */
const CYRILLIC = /\p{Script=Cyrillic}/u;

/**
 * The keyword question: a plain word or phrase as typed, or a query (it uses query syntax), said back
 * in words; a query that does not parse is refused with where and why, and the question is asked again.
 */
async function askKeyword(conversation: Convo, ctx: DialogContext, given?: string): Promise<{ keyword: string; query: boolean }> {
  let question = ctx.t("track-keyword");
  let typed = given?.trim() || null;
  for (;;) {
    const keyword = typed ?? (await askText(conversation, ctx, question))!;
    typed = null;
    if (!looksLikeQuery(keyword)) return { keyword, query: false };
    try {
      const meaning = describeQuery(parseQuery(keyword), (k, v) => ctx.t(k, v));
      await ctx.reply(ctx.t("track-query-taken", { meaning: Bun.escapeHTML(meaning) }));
      return { keyword, query: true };
    } catch (e) {
      const problem = queryProblemText(e, keyword, (k, v) => ctx.t(k, v));
      if (problem === null) throw e;
      await ctx.reply(problem);
      question = ctx.t("track-keyword-again");
    }
  }
}

/** How to notify: here, a webhook, or one of the person's groups (picked by name; asked again when they have none). */
async function askVia(conversation: Convo, ctx: DialogContext): Promise<{ via: string; team: TeamChatChoice | null }> {
  for (;;) {
    const via = await askOption(conversation, ctx, ctx.t("track-via"), [
      [ctx.t("track-via-bot"), "bot"],
      [ctx.t("trk-via-chat"), "chat"],
      [ctx.t("track-via-webhook"), "webhook"],
    ]);
    if (via !== "chat") return { via, team: null };
    const team = await pickTeamChat(conversation, ctx);
    if (team === "cancel") {
      await ctx.reply(ctx.t(CANCELLED));
      return conversation.halt();
    }
    if (team !== "none") return { via, team };
  }
}

/** Splits an answer into entries at `separators`; null for /skip. */
const list = (s: string | null, separators: RegExp) =>
  s
    ? s
        .split(separators)
        .map((w) => w.trim())
        .filter(Boolean)
    : null;
/** Minus words may be phrases ("в кредит"): only commas and line breaks separate them. */
const COMMAS = /[,\n]+/;
/** Source references contain no spaces or commas. */
const COMMAS_OR_SPACES = /[\s,]+/;

/**
 * /track (or `/track <keyword>`, which answers the first question): asks keyword, exact matching, minus words, where to search, sources and how to notify,
 * then creates the tracker through core (the same validation and plan limit as the API).
 */
export async function trackConversation(conversation: Convo, ctx: DialogContext, given?: string): Promise<void> {
  const { keyword, query } = await askKeyword(conversation, ctx, given);
  // a query matches whole words by its own rules: the question would mean nothing
  const exact = query
    ? "exact"
    : await askOption(conversation, ctx, ctx.t("track-exact"), [
        [ctx.t("track-exact-whole"), "exact"],
        [ctx.t("track-exact-anywhere"), "substring"],
      ]);
  const minus = await askText(conversation, ctx, ctx.t("track-minus"), true);
  const where = await askOption(conversation, ctx, ctx.t("track-where"), [
    [ctx.t("track-where-both"), "both"],
    [ctx.t("track-where-channels"), "channels"],
    [ctx.t("track-where-chats"), "chats"],
  ]);
  const sources = await askText(conversation, ctx, ctx.t("track-sources"), true);
  const { via, team } = await askVia(conversation, ctx);
  const webhook = via === "webhook" ? await askText(conversation, ctx, ctx.t("track-webhook")) : null;

  const input: TrackerInput = {
    name: Array.from(keyword).slice(0, 100).join(""), // 100 characters (code points), as core counts them
    keyword,
    syntax: query ? "query" : "plain",
    exact_match: exact === "exact",
    word_forms: CYRILLIC.test(keyword),
    minus_words: list(minus, COMMAS),
    search_channels: where !== "chats",
    search_chats: where !== "channels",
    include_sources: list(sources, COMMAS_OR_SPACES),
    notify_via: via === "webhook" ? "webhook" : team ? "chat" : "bot",
    webhook_url: webhook,
    ...(team ? { notify_chat_id: team.chatId, notify_thread_id: team.threadId } : {}),
  };
  const result = await conversation.external(async (outside: BotContext) => {
    if (!outside.user) return { error: outside.t("track-private-only") };
    try {
      const row = await write(outside, createTracker, input);
      return { id: row.id };
    } catch (e) {
      if (e instanceof AppError) return { error: problemText(outside, e) };
      throw e;
    }
  });
  if ("error" in result) {
    await ctx.reply(ctx.t("track-failed", { problem: Bun.escapeHTML(result.error!) }));
    return;
  }
  await conversation.external((o) =>
    open(
      o,
      trackerScreen,
      [result.id],
      [o.t("track-created", { keyword: Bun.escapeHTML(input.keyword!) }), input.word_forms ? o.t("track-created-word-forms") : ""]
        .filter(Boolean)
        .join("\n"),
    ),
  );
}

/** One option of tracker `id`: the question, then the answer saved through core (or its problem, and another try). */
export async function trackerOptionConversation(conversation: Convo, ctx: DialogContext, id: number, index: number) {
  const option = TRACKER_OPTIONS[index];
  if (!option) return;
  if (option.picks === "notify") return notifyOption(conversation, ctx, id, option);
  if (option.choices) return chooseOption(conversation, ctx, id, option as TrackerOption & Required<Pick<TrackerOption, "choices">>);
  await answerOption(conversation, ctx, option, async (o, text) => {
    const t = await getTracker(o.deps, o.owner.id, id);
    await write(o, updateTracker, id, text === "/clear" ? option.clear! : option.parse(text, t));
    await open(o, trackerScreen, [id], o.t("option-saved", { option: o.t(option.label).replace(/^\S+\s/, "") }));
  });
}

/**
 * A few-way option of tracker `id`: its values as buttons (or typed: the words its parser reads,
 * `да`/`нет` for on/off), saved through core; a problem is said and the tracker stays as it was.
 */
async function chooseOption(
  conversation: Convo,
  ctx: DialogContext,
  id: number,
  option: TrackerOption & Required<Pick<TrackerOption, "choices">>,
) {
  const read = (typed: string): string | null => {
    try {
      option.parse(typed, {} as never);
      return typed;
    } catch {
      return null;
    }
  };
  const { value } = await askChoice(conversation, ctx, ctx.t("option-ask", { label: ctx.t(option.label), prompt: ctx.t(option.prompt) }), {
    choices: option.choices.buttons.map(([key, word]) => [ctx.t(key), word] as [string, string]),
    perRow: option.choices.buttons.length,
    read,
    hint: ctx.t(option.choices.refuse),
  });
  if (value === "cancel") return void (await conversation.external((o) => open(o, trackerScreen, [id])));
  await saveOption(conversation, ctx, id, option, () => option.parse(value, {} as never));
}

/**
 * How tracker `id` notifies: here, a group or channel of the person's (picked by name, then a
 * topic), or a webhook (its URL asked). Typed, the option's own words still work (`bot`, a URL,
 * `chat <id> [topic id]`).
 */
async function notifyOption(conversation: Convo, ctx: DialogContext, id: number, option: TrackerOption) {
  const choices: [string, string][] = [
    [ctx.t("track-via-bot"), "bot"],
    [ctx.t("trk-via-chat"), "chat"],
    [ctx.t("track-via-webhook"), "webhook"],
  ];
  const { value } = await askChoice(conversation, ctx, ctx.t("option-ask", { label: ctx.t(option.label), prompt: ctx.t(option.prompt) }), {
    choices,
    perRow: 1,
    read: (typed) => readChoice(choices, typed) ?? typed,
    hint: ctx.t(option.prompt),
  });
  const redraw = () => conversation.external((o) => open(o, trackerScreen, [id]));
  if (value === "cancel") return void (await redraw());
  if (value === "webhook")
    return answerOption(conversation, ctx, { label: option.label, prompt: "trk-prompt-webhook" }, async (o, text) => {
      await write(o, updateTracker, id, { notify_via: "webhook", webhook_url: text });
      await open(o, trackerScreen, [id], o.t("option-saved", { option: o.t(option.label).replace(/^\S+\s/, "") }));
    });
  if (value !== "chat") {
    // typed in the option's own words (`bot`, a URL, `chat <id> [topic id]`): a refusal asks again
    let typed = value;
    for (;;) {
      const problem = await trySave(conversation, id, option, () => option.parse(typed, {} as never));
      if (!problem) return;
      await ctx.reply(ctx.t("dialog-try-again", { problem: Bun.escapeHTML(problem) }));
      const c = await conversation.wait();
      const text = c.message?.text?.trim();
      if (text === undefined || text.startsWith("/")) return conversation.halt({ next: true });
      typed = text;
    }
  }
  const team = await pickTeamChat(conversation, ctx);
  if (team === "none" || team === "cancel") return void (await redraw());
  await saveOption(conversation, ctx, id, option, () => ({
    notify_via: "chat",
    notify_chat_id: team.chatId,
    notify_thread_id: team.threadId,
  }));
}

/** Saves `input()` on tracker `id` through core and redraws its card; a problem is said and the tracker stays as it was. */
async function saveOption(conversation: Convo, ctx: DialogContext, id: number, option: TrackerOption, input: () => TrackerInput) {
  const problem = await trySave(conversation, id, option, input);
  if (problem) await ctx.reply(ctx.t("track-failed", { problem: Bun.escapeHTML(problem) }));
}

/** Saves `input()` on tracker `id` and redraws its card; the problem in words when core refuses it (null when saved). */
function trySave(conversation: Convo, id: number, option: TrackerOption, input: () => TrackerInput): Promise<string | null> {
  return conversation.external(async (o) => {
    try {
      await write(o, updateTracker, id, input());
      await open(o, trackerScreen, [id], o.t("option-saved", { option: o.t(option.label).replace(/^\S+\s/, "") }));
      return null;
    } catch (e) {
      if (e instanceof AppError) return problemText(o, e);
      throw e;
    }
  });
}
