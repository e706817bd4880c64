import { GrammyError, HttpError, InputFile, type Api } from "grammy";
import type { Deps } from "../deps";
import { AppError, NotConfigured, RateLimited, Upstream } from "../errors";
import { getUser } from "../accounts/users";
import { targetButton, type BotTarget } from "../deep-link";
import { languageFor, t, type Language } from "../i18n/translate";

/**
 * Whose data goes to whose chat: an account's id when they are one (a personal workspace), or a
 * workspace's data sent to the person acting in it (a team has no chat of its own).
 */
export type ChatOwner = number | { workspace: number; person: number };
/** The account whose data is read. */
export const ownerIdOf = (who: ChatOwner): number => (typeof who === "number" ? who : who.workspace);
/** The person whose chat, language and time zone apply. */
export const personOf = (who: ChatOwner): number => (typeof who === "number" ? who : who.person);

/** The person's own Telegram chat (private chat id = Telegram user id), the Bot API client and the language the bot speaks to them. */
export async function userChat(
  deps: Pick<Deps, "asyncDb" | "telegram">,
  who: ChatOwner,
): Promise<{ api: Api; chatId: number; lang: Language }> {
  if (!deps.telegram) throw new NotConfigured("The Telegram bot is not configured (BOT_TOKEN is unset), so nothing can be sent to a chat");
  const user = await getUser(deps, personOf(who));
  if (!user.msgrId)
    throw new AppError(
      409,
      "telegram_not_linked",
      "Your account has no Telegram identity to send to: sign in with Telegram or link it in settings, start the bot, then try again",
    );
  return { api: deps.telegram, chatId: user.msgrId, lang: languageFor(user.language, user.appLanguage) };
}

/** Maps a Bot API failure to a clear error for the caller. (429s were already retried by auto-retry.) */
function telegramError(e: unknown): unknown {
  if (e instanceof GrammyError) {
    if (e.error_code === 403 || (e.error_code === 400 && /chat not found/i.test(e.description)))
      return new AppError(
        409,
        "bot_blocked",
        "Telegram refused the message: you blocked the bot or never started it. Open the bot, press Start (or unblock it) and try again",
      );
    if (e.error_code === 429)
      return new RateLimited(Number(e.parameters.retry_after ?? 30), "Telegram is rate limiting the bot; try again shortly");
    return new Upstream(`Telegram refused the message: ${e.description}`, "telegram_error");
  }
  if (e instanceof HttpError) return new Upstream("Telegram could not be reached; try again later", "telegram_unreachable");
  return e;
}

export interface ChatFile {
  bytes: Uint8Array;
  filename: string;
  caption?: string;
  /** the object the message's "Open in the bot" button opens in place (e.g. a link's card) */
  open?: BotTarget;
}

/** Sends a photo or document to the user's Telegram chat; Bot API failures become clear AppErrors. */
export async function sendToUserChat(
  deps: Pick<Deps, "asyncDb" | "telegram">,
  who: ChatOwner,
  kind: "photo" | "document",
  file: ChatFile,
): Promise<void> {
  const { api, chatId, lang } = await userChat(deps, who);
  const input = new InputFile(file.bytes, file.filename);
  try {
    const extra = {
      // every message is HTML (core/delivery/parse-mode.ts); captions are plain text
      caption: file.caption === undefined ? undefined : Bun.escapeHTML(file.caption),
      ...(file.open ? { reply_markup: { inline_keyboard: [[targetButton(t(lang, "file-open-in-bot"), file.open)]] } } : {}),
    };
    if (kind === "photo") await api.sendPhoto(chatId, input, extra);
    else await api.sendDocument(chatId, input, extra);
  } catch (e) {
    throw telegramError(e);
  }
}
