/**
 * What a button of a bot message, or a t.me/<bot>?start=<payload> link, asks the bot for: one typed
 * value, written and read here only. Core writes them into the messages it queues; the bot routes
 * them in one place (bot/features/deep-links.ts).
 *
 * A payload is `<kind>`, `<kind>_<id>` or `readr_<from>-<to>` (the forms t.me links have carried
 * since the first release, so buttons of old messages keep working).
 */

/** Targets that open a screen drawn for one object. */
type OpenKind = "link" | "share" | "sharelink" | "tracker" | "channel" | "invite" | "placement";
/** Targets that open a screen without an id. */
type ListKind = "links" | "settings" | "reports" | "trackers" | "ads";

export type BotTarget =
  | { [K in OpenKind]: { kind: K; id: number } }[OpenKind]
  | { [K in ListKind]: { kind: K } }[ListKind]
  /** mark one keyword match read */
  | { kind: "read"; id: number }
  /** mark the owner's matches with ids from..to read */
  | { kind: "readr"; from: number; to: number }
  /** revoke a secure share link (a button only: a link someone sends must not act) */
  | { kind: "revoke"; id: number };

export type BotTargetKind = BotTarget["kind"];

const WITH_ID = new Set<string>([
  "link",
  "share",
  "sharelink",
  "tracker",
  "channel",
  "invite",
  "placement",
  "read",
  "revoke",
] satisfies BotTargetKind[]);
const BARE = new Set<string>(["links", "settings", "reports", "trackers", "ads"] satisfies ListKind[]);
/** Kinds a t.me start link may carry: everything but what a button alone may do. */
const NOT_STARTABLE = new Set<BotTargetKind>(["revoke"]);

/** Telegram's limits: a start payload is at most 64 characters of [A-Za-z0-9_-]; callback data at most 64 bytes. */
const MAX = 64;
const ID = /^[1-9]\d{0,14}$/;

/** The payload of a target (`link_12`, `readr_3-9`, `trackers`). */
export function encodeTarget(target: BotTarget): string {
  switch (target.kind) {
    case "readr":
      return `readr_${target.from}-${target.to}`;
    case "links":
    case "settings":
    case "reports":
    case "trackers":
    case "ads":
      return target.kind;
    default:
      return `${target.kind}_${target.id}`;
  }
}

/** The target a payload names, or null for anything else (a typo, a payload of another bot). */
export function decodeTarget(payload: string): BotTarget | null {
  if (BARE.has(payload)) return { kind: payload as ListKind };
  const range = /^readr_(\d+)-(\d+)$/.exec(payload);
  if (range) {
    if (!ID.test(range[1]!) || !ID.test(range[2]!)) return null;
    const from = Number(range[1]);
    const to = Number(range[2]);
    return from <= to ? { kind: "readr", from, to } : null;
  }
  const m = /^([a-z]+)_(\d+)$/.exec(payload);
  if (!m || !WITH_ID.has(m[1]!) || !ID.test(m[2]!)) return null;
  return { kind: m[1] as OpenKind, id: Number(m[2]) };
}

/** The target of a `/start <payload>`, or null when the payload is not one a link may carry. */
export function decodeStart(payload: string): BotTarget | null {
  const target = decodeTarget(payload.trim());
  return target && !NOT_STARTABLE.has(target.kind) ? target : null;
}

/** The prefix of callback data that carries a target. */
const CALLBACK = "go:";

/** Callback data for a button that acts on `target` in place (at most Telegram's 64 bytes). */
export function callbackData(target: BotTarget): string {
  const data = CALLBACK + encodeTarget(target);
  if (Buffer.byteLength(data) > MAX) throw new Error(`callback data over ${MAX} bytes: ${data}`);
  return data;
}

/** The target of a button's callback data, or null when the data is not one of these. */
export function decodeCallback(data: string): BotTarget | null {
  return data.startsWith(CALLBACK) ? decodeTarget(data.slice(CALLBACK.length)) : null;
}

/** Callback data of these buttons (for a bot's router: `bot.callbackQuery(CALLBACK_DATA, …)`). */
export const CALLBACK_DATA = /^go:/;

/** An inline button that acts on `target` in place: the bot answers with a toast and edits or sends a screen. */
export function targetButton(text: string, target: BotTarget): { text: string; callback_data: string } {
  return { text, callback_data: callbackData(target) };
}

/**
 * Start links queued by earlier releases: a queued message named the payload (`bot-start:<payload>`)
 * and the sender wrote https://t.me/<username>?start=<payload> when it sent, since the bot's username
 * is known only to the Bot API. Rows still waiting in an outbox are sent so.
 */
const SCHEME = "bot-start:";

/**
 * A button of a queued message that opens `target` in the presser's private chat with the bot (a
 * t.me start link, written when the message is sent): for messages into a group, where a button
 * acting in place would act for whoever pressed it. Null for a target a link may not carry.
 */
export function startButton(text: string, target: BotTarget): { text: string; url: string } | null {
  return NOT_STARTABLE.has(target.kind) ? null : { text, url: SCHEME + encodeTarget(target) };
}

/** True when the queued parameters hold a start link to resolve. */
export function hasStartLinks(params: Record<string, unknown>): boolean {
  return JSON.stringify(params.reply_markup ?? null).includes(SCHEME);
}

/** The parameters with every start link written as https://t.me/<username>?start=<payload>. */
export function resolveStartLinks<T extends Record<string, unknown>>(params: T, username: string): T {
  const markup = params.reply_markup as { inline_keyboard?: { url?: string }[][] } | undefined;
  if (!markup?.inline_keyboard) return params;
  const inline_keyboard = markup.inline_keyboard.map((row) =>
    row.map((b) => (b.url?.startsWith(SCHEME) ? { ...b, url: `https://t.me/${username}?start=${b.url.slice(SCHEME.length)}` } : b)),
  );
  return { ...params, reply_markup: { ...markup, inline_keyboard } };
}
