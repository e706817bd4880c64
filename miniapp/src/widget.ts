/** Telegram Login Widget: Telegram's script, loaded only when the user picks this sign-in. */
import { get } from "./api";

let config: Promise<{ botUsername: string | null; baseUrl: string; shortUrl: string }> | null = null;

/** Server facts the client needs (bot username for the widget, short URL base). */
export function appConfig() {
  config ??= get("/app/config.json");
  return config;
}

export interface WidgetUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  photo_url?: string;
  auth_date: number;
  hash: string;
}

/** Mounts the widget button into `el`; `onAuth` gets the signed user data. */
export function mountLoginWidget(el: HTMLElement, botUsername: string, onAuth: (u: WidgetUser) => void) {
  (window as any).__onTelegramAuth = onAuth;
  el.innerHTML = "";
  const s = document.createElement("script");
  s.async = true;
  s.src = "https://telegram.org/js/telegram-widget.js?22";
  s.dataset.telegramLogin = botUsername;
  s.dataset.size = "large";
  s.dataset.requestAccess = "write";
  s.dataset.onauth = "__onTelegramAuth(user)";
  el.appendChild(s);
}
