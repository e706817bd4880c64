/**
 * Buttons of queued bot messages that open an object in the bot (t.me/<bot>?start=<payload>). The
 * bot's username is known only to the Bot API, so a queued message names the payload and the sender
 * writes the link when it sends (it asks getMe once).
 */
const SCHEME = "bot-start:";

/** A URL-button target that opens the bot at `/start <payload>` (payload: letters, digits, _ and -, at most 64). */
export function startLink(payload: string): string {
  if (!/^[\w-]{1,64}$/.test(payload)) throw new Error(`invalid start payload "${payload}"`);
  return SCHEME + payload;
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
    row.map((b) => (b.url?.startsWith(SCHEME) ? { ...b, url: `https://t.me/${username}?start=${b.url.slice(SCHEME.length)}` } : b)));
  return { ...params, reply_markup: { ...markup, inline_keyboard } };
}
