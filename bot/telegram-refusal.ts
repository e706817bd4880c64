/**
 * Telegram's refusal of something the bot asked it to do (make an invite link, approve a request), in
 * the reader's language: Telegram describes it in English (`Bad Request: not enough rights to manage
 * chat invite links`), so the refusals people meet are said by what to do about them, and any other
 * is quoted as Telegram's own words.
 */
import type { I18nFlavor } from "@grammyjs/i18n";

/** Known descriptions, the most specific first, each with the key that says it. */
const KNOWN: [RegExp, string][] = [
  [/not enough rights to (manage|create|edit|export) (chat )?invite links?/i, "tg-why-invite-rights"],
  [/not enough rights|CHAT_ADMIN_REQUIRED|need administrator rights/i, "tg-why-admin-rights"],
  [/bot is not a member|bot was kicked|bot is not an? (member|administrator)|CHANNEL_PRIVATE/i, "tg-why-not-member"],
  [/chat not found|PEER_ID_INVALID/i, "tg-why-chat-not-found"],
  [/HIDE_REQUESTER_MISSING|USER_ALREADY_PARTICIPANT/i, "tg-why-request-gone"],
  [/USER_CHANNELS_TOO_MUCH/i, "tg-why-user-full"],
];

/** `description` (Telegram's, as the API's telegram_refused error carries it) in the reader's words. */
export function telegramRefusal(ctx: I18nFlavor, description: string): string {
  const key = KNOWN.find(([re]) => re.test(description))?.[1];
  return key ? ctx.t("telegram-refused-why", { why: ctx.t(key) }) : ctx.t("telegram-refused", { reason: description });
}
