/**
 * A bot message as Telegram shows it, drawn in headless Chromium to a PNG: the message's HTML text
 * (the subset Telegram's parse_mode HTML allows) in a chat bubble, its inline keyboard below, at
 * a phone's width. For docs/ pictures of bot screens, drawn from what the bot really sent.
 */
import type { Browser } from "playwright-core";

const CSS = `
body { margin: 0; background: #b9c9a8; font: 15px/1.35 "DejaVu Sans", sans-serif; color: #000; }
.chat { width: 380px; padding: 12px 10px; box-sizing: border-box; }
.bubble { background: #fff; border-radius: 12px 12px 12px 4px; padding: 8px 10px; white-space: pre-wrap; overflow-wrap: anywhere; box-shadow: 0 1px 1px rgba(0,0,0,.15); }
.bubble code { font-family: "DejaVu Sans Mono", monospace; font-size: 13px; color: #b5322e; }
.keyboard { margin-top: 4px; display: flex; flex-direction: column; gap: 4px; }
.keyboard .row { display: flex; gap: 4px; }
.keyboard .btn { flex: 1; background: rgba(77, 110, 60, .55); color: #fff; border-radius: 8px; padding: 8px 4px; text-align: center; font-size: 13px; font-weight: 600; }
`;

/** Draws `message` (a sendMessage/editMessageText call's params) into `path`. */
export async function drawBotMessage(
  browser: Browser,
  message: { text: string; reply_markup?: { inline_keyboard?: { text: string }[][] } },
  path: string,
) {
  const rows = (message.reply_markup?.inline_keyboard ?? []).filter((r) => r.length);
  const esc = (s: string) => Bun.escapeHTML(s);
  const html = `<!doctype html><meta charset="utf-8"><style>${CSS}</style><div class="chat"><div class="bubble">${message.text}</div>
    <div class="keyboard">${rows.map((r) => `<div class="row">${r.map((b) => `<div class="btn">${esc(b.text)}</div>`).join("")}</div>`).join("")}</div></div>`;
  const page = await browser.newPage({ viewport: { width: 380, height: 200 }, deviceScaleFactor: 1 });
  await page.setContent(html);
  await page.locator(".chat").screenshot({ path });
  await page.close();
}
