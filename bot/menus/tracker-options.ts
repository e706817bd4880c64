/**
 * A tracker's editable options, one row each (like the link card's): the button, and the question
 * whose one answer becomes the API's input, saved through the same core function (same validation).
 * Choices with two or three values are buttons (their words may be typed too), so every option is
 * one tap plus one answer.
 */
import type { TrackerInput, TrackerRow } from "../../core/tracking/trackers";
import { Refusal } from "../problem";

export interface TrackerOption {
  /** the button (a translation key) */
  label: string;
  /** the question (a translation key) */
  prompt: string;
  parse: (text: string, tracker: TrackerRow) => TrackerInput;
  clear?: TrackerInput;
  /**
   * A few-way option: its buttons (a translation key each, and the typed word it stands for, read by
   * `parse`) and the refusal said when a typed answer is none of them (a translation key).
   */
  choices?: { buttons: [string, string][]; refuse: string };
  /** an option with a picker of its own: "notify" asks here / a group (by name, then a topic) / a webhook */
  picks?: "notify";
}

const ON_OFF = {
  buttons: [
    ["choice-on", "on"],
    ["choice-off", "off"],
  ] as [string, string][],
  refuse: "tracker-refuse-on-off",
};

/** A typed on/off: `on`/`вкл`/`yes`/`да` or `off`/`выкл`/`no`/`нет`; null for anything else. */
function onOff(text: string): boolean | null {
  const t = text.trim().toLowerCase();
  if (/^(on|вкл)/.test(t) || /^(yes|y|да|д)$/.test(t)) return true;
  if (/^(off|выкл)/.test(t) || /^(no|n|нет|н)$/.test(t)) return false;
  return null;
}

const bad = (key: string): never => {
  throw new Refusal(key);
};
/** Minus words may be phrases ("в кредит"): only commas and line breaks separate them. */
const COMMAS = /[,\n]+/;
/** Source references contain no spaces or commas. */
const COMMAS_OR_SPACES = /[\s,]+/;
const list = (s: string, sep: RegExp) =>
  s
    .split(sep)
    .map((w) => w.trim())
    .filter(Boolean);

export const TRACKER_OPTIONS: TrackerOption[] = [
  {
    label: "tracker-option-keyword",
    prompt: "tracker-prompt-keyword",
    parse: (t) => ({ keyword: t, name: Array.from(t).slice(0, 100).join("") }),
  },
  {
    label: "tracker-option-matching",
    choices: {
      buttons: [
        ["track-exact-whole", "whole"],
        ["track-exact-anywhere", "anywhere"],
      ],
      refuse: "tracker-refuse-matching",
    },
    prompt: "tracker-prompt-matching",
    parse: (t) =>
      /^(whole|цел)/i.test(t) ? { exact_match: true } : /^(any|где)/i.test(t) ? { exact_match: false } : bad("tracker-refuse-matching"),
  },
  {
    label: "tracker-option-minus",
    prompt: "tracker-prompt-minus",
    parse: (t) => ({ minus_words: list(t, COMMAS) }),
    clear: { minus_words: null },
  },
  {
    label: "tracker-option-where",
    choices: {
      buttons: [
        ["track-where-both", "both"],
        ["track-where-channels", "channels"],
        ["track-where-chats", "chats"],
      ],
      refuse: "tracker-refuse-where",
    },
    prompt: "tracker-prompt-where",
    parse: (t) => {
      const w = t.toLowerCase();
      if (w.startsWith("both") || w.startsWith("оба") || w.startsWith("везде")) return { search_channels: true, search_chats: true };
      if (w.startsWith("channel") || w.startsWith("канал")) return { search_channels: true, search_chats: false };
      if (w.startsWith("chat") || w.startsWith("чат")) return { search_channels: false, search_chats: true };
      return bad("tracker-refuse-where");
    },
  },
  {
    label: "tracker-option-only",
    prompt: "tracker-prompt-only",
    parse: (t) => ({ include_sources: list(t, COMMAS_OR_SPACES) }),
    clear: { include_sources: null },
  },
  {
    label: "tracker-option-skip",
    prompt: "tracker-prompt-skip",
    parse: (t) => ({ exclude_sources: list(t, COMMAS_OR_SPACES) }),
    clear: { exclude_sources: null },
  },
  {
    label: "tracker-option-min-subscribers",
    prompt: "tracker-prompt-min-subscribers",
    parse: (t) => (/^\d{1,9}$/.test(t) ? { filter_min_subscribers: Number(t) } : bad("tracker-refuse-number")),
    clear: { filter_min_subscribers: null },
  },
  {
    label: "tracker-option-language",
    prompt: "tracker-prompt-language",
    parse: (t) => ({ filter_language: t.toLowerCase() }),
    clear: { filter_language: null },
  },
  {
    label: "tracker-option-notify",
    prompt: "tracker-prompt-notify",
    picks: "notify",
    parse: (t) => {
      if (/^(bot|бот)$/i.test(t)) return { notify_via: "bot" };
      const chat = /^(?:chat|чат)\s+(-?\d+)(?:\s+(\d+))?$/i.exec(t);
      if (chat) return { notify_via: "chat", notify_chat_id: chat[1]!, notify_thread_id: chat[2] ? Number(chat[2]) : null };
      if (/^(chat|чат)(?=\s|$)/i.test(t)) return bad("tracker-refuse-chat");
      return { notify_via: "webhook", webhook_url: t };
    },
  },
  {
    label: "tracker-option-syntax",
    choices: {
      buttons: [
        ["choice-syntax-query", "query"],
        ["choice-syntax-plain", "plain"],
      ],
      refuse: "tracker-refuse-syntax",
    },
    prompt: "tracker-prompt-syntax",
    parse: (t) =>
      /^(query|запрос)/i.test(t) ? { syntax: "query" } : /^(plain|прост)/i.test(t) ? { syntax: "plain" } : bad("tracker-refuse-syntax"),
  },
  {
    label: "tracker-option-word-forms",
    choices: ON_OFF,
    prompt: "tracker-prompt-word-forms",
    parse: (t) => ((onOff(t) ?? bad("tracker-refuse-on-off")) ? { word_forms: true } : { word_forms: false }),
  },
  {
    label: "tracker-option-reposts",
    choices: {
      buttons: [
        ["choice-reposts-skip", "skip"],
        ["choice-reposts-keep", "keep"],
      ],
      refuse: "tracker-refuse-reposts",
    },
    prompt: "tracker-prompt-reposts",
    parse: (t) =>
      /^(skip|пропус)/i.test(t)
        ? { skip_reposts: true }
        : /^(keep|остав)/i.test(t)
          ? { skip_reposts: false }
          : bad("tracker-refuse-reposts"),
  },
  {
    label: "tracker-option-my-links",
    choices: ON_OFF,
    prompt: "tracker-prompt-my-links",
    parse: (t) => ((onOff(t) ?? bad("tracker-refuse-on-off")) ? { watch_links: true } : { watch_links: false }),
  },
  {
    label: "tracker-option-how-often",
    choices: {
      buttons: [
        ["choice-every-instant", "instant"],
        ["choice-every-hour", "hour"],
        ["choice-every-day", "day"],
      ],
      refuse: "tracker-refuse-how-often",
    },
    prompt: "tracker-prompt-how-often",
    parse: (t) => {
      const w = t.toLowerCase();
      if (w.startsWith("inst") || w.startsWith("сразу")) return { notify_every: "instant" };
      if (w.startsWith("hour") || w.startsWith("час")) return { notify_every: "hour" };
      if (w.startsWith("day") || w.startsWith("dai") || w.startsWith("день") || w.startsWith("дн")) return { notify_every: "day" };
      return bad("tracker-refuse-how-often");
    },
  },
];
