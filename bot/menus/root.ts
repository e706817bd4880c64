import { InlineKeyboard } from "grammy";

/** Callback data of the root menu's sections; each feature answers its own. */
export const MENU = {
  root: "menu:root",
  links: "menu:links",
  secure: "menu:secure",
  tracking: "menu:tracking",
  settings: "menu:settings",
} as const;

export const ROOT_TEXT = "What would you like to do?";

/** Telegram refuses buttons that point at loopback addresses, so those get no app button. */
function isLoopback(url: URL): boolean {
  return url.hostname === "localhost" || url.hostname.endsWith(".localhost") || /^127\./.test(url.hostname) || url.hostname === "[::1]";
}

/**
 * The root menu: one button per section and a button that opens the mini-app (a `web_app` button
 * when BASE_URL is https, which Telegram requires for Mini Apps; otherwise a plain URL button).
 */
export function rootKeyboard(baseUrl: string): InlineKeyboard {
  const kb = new InlineKeyboard()
    .text("🔗 Links", MENU.links)
    .text("🔒 Secure sharing", MENU.secure)
    .row()
    .text("🔎 Keyword tracking", MENU.tracking)
    .text("⚙️ Settings", MENU.settings)
    .row();
  const url = new URL(baseUrl + "/");
  if (url.protocol === "https:") kb.webApp("📱 Open the app", url.href);
  else if (!isLoopback(url)) kb.url("📱 Open the app", url.href);
  return kb;
}

/** A one-button keyboard back to the root menu, for features to append. */
export function backToMenu(kb: InlineKeyboard = new InlineKeyboard()): InlineKeyboard {
  return kb.text("⬅️ Menu", MENU.root);
}
