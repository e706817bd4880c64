/**
 * Telegram Login Widget: Telegram's script, loaded only when the user picks this sign-in. Its
 * `Telegram.Login.auth` opens Telegram's sign-in popup and hands the signed user data to a callback;
 * the embedded button's `data-onauth` would instead evaluate a string of code, which the page's
 * Content-Security-Policy forbids.
 */
import { t } from "./i18n";
import { call, client } from "./api";

const fetchConfig = () => call(client.app["config.json"].get());
let config: ReturnType<typeof fetchConfig> | null = null;

/** Server facts the client needs (bot username for the widget, short URL base). */
export function appConfig() {
  config ??= fetchConfig();
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

/** What Telegram's widget script adds to `window.Telegram`. */
interface TelegramLogin {
  auth(options: { bot_id: number; request_access: "write" }, callback: (user: WidgetUser | false) => void): void;
}

const WIDGET_SCRIPT = "https://telegram.org/js/telegram-widget.js?22";
let widgetScript: Promise<void> | null = null;

function loadWidgetScript(): Promise<void> {
  return (widgetScript ??= new Promise<void>((resolve, reject) => {
    const s = document.createElement("script");
    s.async = true;
    s.src = WIDGET_SCRIPT;
    s.onload = () => resolve();
    s.onerror = () => {
      widgetScript = null;
      reject(new Error(t("app-widget-script-failed")));
    };
    document.head.appendChild(s);
  }));
}

/**
 * Mounts a "Log in with Telegram" button into `el` for the bot `botId`; `onAuth` gets the signed
 * user data once the user confirms in Telegram's popup, `onError` a failure to load Telegram's script.
 */
export function mountLoginWidget(
  el: HTMLElement,
  botId: number,
  onAuth: (u: WidgetUser) => void,
  onError: (message: string) => void = () => {},
) {
  el.innerHTML = "";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "btn tg-login";
  button.textContent = t("app-widget-login");
  button.disabled = true;
  // called straight from the click, so the browser lets the popup open
  button.onclick = () =>
    (window as unknown as { Telegram: { Login: TelegramLogin } }).Telegram.Login.auth(
      { bot_id: botId, request_access: "write" },
      (user: WidgetUser | false) => {
        if (user) onAuth(user);
      },
    );
  el.appendChild(button);
  loadWidgetScript().then(
    () => (button.disabled = false),
    (e: Error) => onError(e.message),
  );
}
