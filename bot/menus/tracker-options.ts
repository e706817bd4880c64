/**
 * A tracker's editable options, one row each (like the link card's): the button, and the question
 * whose one answer becomes the API's input, saved through the same core function (same validation).
 * Choices with two or three values are typed words, so every option is one tap plus one answer.
 */
import type { TrackerInput, TrackerRow } from "../../core/tracking/trackers";
import { ValidationError } from "../../core/errors";

export interface TrackerOption {
  /** the button (a translation key) */
  label: string;
  prompt: string;
  parse: (text: string, tracker: TrackerRow) => TrackerInput;
  clear?: TrackerInput;
}

const bad = (m: string): never => {
  throw new ValidationError(m);
};
/** Minus words may be phrases ("в кредит"): only commas and line breaks separate them. */
const COMMAS = /[,\n]+/;
/** Source references contain no spaces or commas. */
const COMMAS_OR_SPACES = /[\s,]+/;
const list = (s: string, sep: RegExp) => s.split(sep).map((w) => w.trim()).filter(Boolean);

export const TRACKER_OPTIONS: TrackerOption[] = [
  { label: "tracker-option-keyword", prompt: "Send the keyword or phrase to look for.", parse: (t) => ({ keyword: t, name: Array.from(t).slice(0, 100).join("") }) },
  {
    label: "tracker-option-matching",
    prompt: "Send “whole” to match whole words only («rust» does not match «trusted») or “anywhere”.",
    parse: (t) => (/^whole/i.test(t) ? { exact_match: true } : /^any/i.test(t) ? { exact_match: false } : bad("Send “whole” or “anywhere”.")),
  },
  { label: "tracker-option-minus", prompt: "Send minus words separated by commas: a post containing any of them is ignored.", parse: (t) => ({ minus_words: list(t, COMMAS) }), clear: { minus_words: null } },
  {
    label: "tracker-option-where",
    prompt: "Send where to look: “both”, “channels” or “chats”.",
    parse: (t) => {
      const w = t.toLowerCase();
      if (w.startsWith("both")) return { search_channels: true, search_chats: true };
      if (w.startsWith("channel")) return { search_channels: true, search_chats: false };
      if (w.startsWith("chat")) return { search_channels: false, search_chats: true };
      return bad("Send “both”, “channels” or “chats”.");
    },
  },
  { label: "tracker-option-only", prompt: "Send @usernames, chat ids or t.me links to search only those, separated by spaces.", parse: (t) => ({ include_sources: list(t, COMMAS_OR_SPACES) }), clear: { include_sources: null } },
  { label: "tracker-option-skip", prompt: "Send @usernames, chat ids or t.me links never to search, separated by spaces.", parse: (t) => ({ exclude_sources: list(t, COMMAS_OR_SPACES) }), clear: { exclude_sources: null } },
  {
    label: "tracker-option-min-subscribers",
    prompt: "Send the smallest member count a channel or group must have.",
    parse: (t) => (/^\d{1,9}$/.test(t) ? { filter_min_subscribers: Number(t) } : bad("Send a whole number.")),
    clear: { filter_min_subscribers: null },
  },
  { label: "tracker-option-language", prompt: "Send the language posts must be in, as a code such as en, ru or de.", parse: (t) => ({ filter_language: t.toLowerCase() }), clear: { filter_language: null } },
  {
    label: "tracker-option-notify",
    prompt:
      "Send “bot” to be told here, a webhook URL to get an HTTP POST per match (it must answer 2xx to a test request), or “chat” with the id of one of your groups or channels where I am an admin, and a forum topic if you like: chat -1001234567890 12",
    parse: (t) => {
      if (/^bot$/i.test(t)) return { notify_via: "bot" };
      const chat = /^chat\s+(-?\d+)(?:\s+(\d+))?$/i.exec(t);
      if (chat) return { notify_via: "chat", notify_chat_id: chat[1]!, notify_thread_id: chat[2] ? Number(chat[2]) : null };
      if (/^chat\b/i.test(t)) return bad("Send “chat” and the group's id, e.g. chat -1001234567890, and a topic id after it if you like.");
      return { notify_via: "webhook", webhook_url: t };
    },
  },
  {
    label: "tracker-option-syntax",
    prompt:
      "Send “query” to write the keyword as a query — spaces: all words; OR or |: either; -word: not; \"…\": exact phrase; word*: starts with; ( ): group; a NEAR/3 b: close together — or “plain” for one word or phrase.",
    parse: (t) => (/^query/i.test(t) ? { syntax: "query" } : /^plain/i.test(t) ? { syntax: "plain" } : bad("Send “query” or “plain”.")),
  },
  {
    label: "tracker-option-word-forms",
    prompt: "Send “on” to match words in any form (канал: каналы, каналов; run: runs, running) or “off” for the words as written.",
    parse: (t) => (/^on$/i.test(t) ? { word_forms: true } : /^off$/i.test(t) ? { word_forms: false } : bad("Send “on” or “off”.")),
  },
  {
    label: "tracker-option-reposts",
    prompt: "Send “skip” to ignore forwarded posts and copies of a post matched in the last 24 hours, or “keep” to match them too.",
    parse: (t) => (/^skip/i.test(t) ? { skip_reposts: true } : /^keep/i.test(t) ? { skip_reposts: false } : bad("Send “skip” or “keep”.")),
  },
  {
    label: "tracker-option-how-often",
    prompt: "Send “instant” to be told at once, “hour” for one digest at the end of each hour or “day” for one a day (UTC).",
    parse: (t) => {
      const w = t.toLowerCase();
      if (w.startsWith("inst")) return { notify_every: "instant" };
      if (w.startsWith("hour")) return { notify_every: "hour" };
      if (w.startsWith("day") || w.startsWith("dai")) return { notify_every: "day" };
      return bad("Send “instant”, “hour” or “day”.");
    },
  },
];
