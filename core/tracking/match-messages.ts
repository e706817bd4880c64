/**
 * The words of keyword-match notifications, in the owner's language: one match, several posts
 * grouped into one message, the snippet with the matched words in bold, and a team chat's copy
 * without the owner's buttons. Queueing them (the burst window, digests) is notify.ts's.
 */
import { targetButton } from "../deep-link";
import type { MatchRow } from "./matches";
import type { TrackerRow } from "./trackers";
import { isWholeWord } from "./normalise";
import { t, type Language } from "../i18n/translate";

/** At most this many matches are listed in a grouped message. */
const GROUP_LIST = 5;
/** The listed matches' share of a message's 4096 characters (the rest: header, "…and N more"). */
const LISTED_TEXT_MAX = 3900;

/** The length Telegram counts of an HTML text: tags left out, entities as one character. */
const visibleLength = (html: string) => html.replace(/<[^>]*>/g, "").replace(/&(?:lt|gt|amp|quot);/g, "_").length;

/**
 * The first of `lines` (HTML, joined by blank lines) that fit in a message: Telegram refuses a text
 * over 4096 characters, and snippets of long keywords (up to 800 characters) can pass it in a list.
 * Never none: one line always fits.
 */
export function fitting(lines: string[]): string[] {
  const out: string[] = [];
  let visible = 0;
  for (const line of lines) {
    const length = visibleLength(line) + 2;
    if (out.length && visible + length > LISTED_TEXT_MAX) break;
    out.push(line);
    visible += length;
  }
  return out;
}

/**
 * Where `matched` is in `snippet`: its first occurrence as whole words when there is one (an exact
 * tracker's match; "кот" in "котёнок и кот." is the second), else its first occurrence.
 */
function matchedAt(snippet: string, matched: string): number {
  let first = -1;
  for (let at = snippet.indexOf(matched); at !== -1; at = snippet.indexOf(matched, at + 1)) {
    if (isWholeWord(snippet, at, at + matched.length)) return at;
    if (first === -1) first = at;
  }
  return first;
}

/** The snippet, escaped, with the matched words in bold. */
export function highlight(snippet: string | null, matchedAsWritten: string | null): string {
  if (!snippet) return "";
  // the snippet is one line (whitespace runs are one space); a phrase may have matched across a line break
  const matched = matchedAsWritten?.replace(/\s+/g, " ") ?? null;
  const at = matched ? matchedAt(snippet, matched) : -1;
  if (at === -1) return Bun.escapeHTML(snippet);
  return `${Bun.escapeHTML(snippet.slice(0, at))}<b>${Bun.escapeHTML(matched!)}</b>${Bun.escapeHTML(snippet.slice(at + matched!.length))}`;
}

export function sourceLine(lang: Language, m: MatchRow): string {
  const title = Bun.escapeHTML(m.sourceTitle ?? m.sourceUsername ?? t(lang, "notify-some-chat"));
  return m.sourceUsername ? `${title} (@${Bun.escapeHTML(m.sourceUsername)})` : title;
}

export type Named = Pick<TrackerRow, "id" | "name">;
/** The matches of one post, with every tracker of the owner that matched it (in tracker order). */
export interface PostItem {
  trackers: Named[];
  match: MatchRow;
  ids: number[];
}

const names = (trackers: Named[]) => trackers.map((t) => `<b>${Bun.escapeHTML(t.name)}</b>`).join(", ");

/** Groups an owner's matches (in id order) by post: one entry per post, naming every tracker that matched it. */
export function byPost(items: { tracker: Named; match: MatchRow }[]): PostItem[] {
  const posts = new Map<string, PostItem>();
  for (const { tracker, match } of items) {
    const key = `${match.sourceChatId}/${match.sourceMessageId}`;
    const post = posts.get(key);
    if (post) {
      post.trackers.push(tracker);
      post.ids.push(match.id);
    } else posts.set(key, { trackers: [tracker], match, ids: [match.id] });
  }
  return [...posts.values()];
}

/** A button that marks these matches read in place (one, or the range from the first to the last: the owner's only). */
export const readButton = (text: string, ids: number[]) =>
  targetButton(text, ids.length === 1 ? { kind: "read", id: ids[0]! } : { kind: "readr", from: Math.min(...ids), to: Math.max(...ids) });

/**
 * The Bot API sendMessage parameters (without chat_id) for one post: its match, and every tracker
 * of the owner that matched it (`ids`: their matches, all marked read by the button).
 */
export function matchMessage(lang: Language, trackers: Named | Named[], m: MatchRow, ids: number[] = [m.id]) {
  const list = Array.isArray(trackers) ? trackers : [trackers];
  const text = [
    t(lang, "notify-new-match", { trackers: names(list) }),
    `📣 ${sourceLine(lang, m)}`,
    "",
    highlight(m.textSnippet, m.matchedKeyword),
  ].join("\n");
  const keyboard: ({ text: string; url: string } | { text: string; callback_data: string })[][] = [];
  if (m.postUrl) keyboard.push([{ text: t(lang, "notify-open-post"), url: m.postUrl }]);
  keyboard.push([
    readButton(t(lang, "notify-mark-read"), ids),
    list.length === 1
      ? targetButton(t(lang, "notify-tracker"), { kind: "tracker", id: list[0]!.id })
      : targetButton(t(lang, "notify-my-trackers"), { kind: "trackers" }),
  ]);
  return { text, link_preview_options: { is_disabled: true }, reply_markup: { inline_keyboard: keyboard } };
}

/** The Bot API parameters for several posts of one owner, grouped into one message (a post once, with all its trackers). */
export function groupedMessage(lang: Language, posts: PostItem[]) {
  const lines = fitting(
    posts
      .slice(0, GROUP_LIST)
      .map(
        ({ trackers, match }) =>
          `• ${names(trackers)}, ${sourceLine(lang, match)}:${openLink(lang, match)}\n${highlight(match.textSnippet, match.matchedKeyword)}`,
      ),
  );
  const more = posts.length > lines.length ? [t(lang, "notify-and-more", { count: posts.length - lines.length })] : [];
  const text = [t(lang, "notify-new-matches", { count: posts.length }), "", ...lines, ...more].join("\n");
  const ids = posts.flatMap((p) => p.ids);
  return {
    text,
    link_preview_options: { is_disabled: true },
    reply_markup: {
      inline_keyboard: [
        [readButton(t(lang, "notify-mark-these-read"), ids), targetButton(t(lang, "notify-my-trackers"), { kind: "trackers" })],
      ],
    },
  };
}

/** " open" linking to the post, for lists of matches (nothing when the post has no public link). */
export const openLink = (lang: Language, m: MatchRow) =>
  m.postUrl ? ` <a href="${Bun.escapeHTML(m.postUrl)}">${t(lang, "notify-open")}</a>` : "";

/**
 * A message for a team chat (notify_via "chat"): the owner's message without the buttons that act
 * for the owner (they open the bot in a private chat), in the forum topic when one is set.
 */
export function chatMessage(
  lang: Language,
  params: Record<string, unknown>,
  m: MatchRow | null,
  threadId: number | null,
): Record<string, unknown> {
  const { reply_markup: _, ...rest } = params;
  return {
    ...rest,
    ...(m?.postUrl ? { reply_markup: { inline_keyboard: [[{ text: t(lang, "notify-open-post"), url: m.postUrl }]] } } : {}),
    ...(threadId !== null ? { message_thread_id: threadId } : {}),
  };
}
