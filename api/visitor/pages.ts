/** The visitor pages: small, self-contained, mobile-friendly HTML; everything shown is escaped. */
import type { PixelTag } from "../../core/redirect/visit";
import { t, type Language } from "../../core/i18n/translate";

/** A JSON value safe to embed in an inline <script> (no `</script>`, no line separators). */
function jsValue(v: unknown): string {
  return JSON.stringify(v)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const CSS = `body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f5f6f8;color:#1d1f23;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:14px;box-shadow:0 2px 12px #0001;padding:28px 24px;margin:16px;max-width:420px;width:100%;text-align:center}
h1{font-size:1.3rem;margin:0 0 .4rem}p{color:#555;margin:.4rem 0}.big{font-size:2rem;font-weight:600;font-variant-numeric:tabular-nums;color:#1d1f23}
input,button{font:inherit;width:100%;box-sizing:border-box;padding:12px;border-radius:10px;margin-top:10px}input{border:1px solid #ccd}button{border:0;background:#2a7de1;color:#fff;font-weight:600}
.err{color:#c62828}@media(prefers-color-scheme:dark){body{background:#17181b;color:#eee}main{background:#222327}p{color:#aaa}.big{color:#eee}input{background:#17181b;color:#eee;border-color:#444}}`;

function page(lang: Language, opts: { title: string; heading: string; body: string; head?: string }): string {
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${Bun.escapeHTML(opts.title)}</title><style>${CSS}</style>${opts.head ?? ""}</head>` +
    `<body><main><h1>${Bun.escapeHTML(opts.heading)}</h1>${opts.body}</main></body></html>`
  );
}

/** Page text in the visitor's language, escaped for HTML. */
const say = (lang: Language, key: string, vars?: Record<string, string | number>) => Bun.escapeHTML(t(lang, key, vars));

export const notFoundPage = (lang: Language) =>
  page(lang, {
    title: t(lang, "visitor-not-found-title"),
    heading: t(lang, "visitor-not-found-title"),
    body: `<p>${say(lang, "visitor-not-found-text")}</p>`,
  });

export const expiredPage = (lang: Language, title: string | null) =>
  page(lang, {
    title: title ?? t(lang, "visitor-expired-title"),
    heading: title ?? t(lang, "visitor-expired-title"),
    body: `<p>${say(lang, "visitor-expired-text")}</p>`,
  });

/** The scripts of these pages, served as files from SHORT_URL/static/ (see page-assets.ts). */
const PAGE_SCRIPTS = { countdown: "/static/countdown.js", pixels: "/static/pixels.js" } as const;

export function countdownPage(lang: Language, title: string | null, startsAt: Date, now: Date): string {
  const seconds = Math.max(0, Math.ceil((startsAt.getTime() - now.getTime()) / 1000));
  // in UTC here; the script writes it again in the visitor's own zone
  const time = `<time datetime="${startsAt.toISOString()}">${Bun.escapeHTML(startsAt.toISOString().replace("T", " ").slice(0, 16))} UTC</time>`;
  return page(lang, {
    title: title ?? t(lang, "visitor-countdown-title"),
    heading: title ?? t(lang, "visitor-countdown-heading"),
    body:
      `<p>${say(lang, "visitor-countdown-opens", { time: "\u0000" }).replace("\u0000", time)}</p>` +
      `<p class="big" id="left" data-seconds="${seconds}" data-day="${say(lang, "visitor-countdown-day-short")}">${seconds}</p><noscript><p>${say(lang, "visitor-countdown-noscript")}</p></noscript>` +
      `<script src="${PAGE_SCRIPTS.countdown}"></script>`,
  });
}

export function passwordPage(lang: Language, title: string | null, wrong: boolean): string {
  return page(lang, {
    title: title ?? t(lang, "visitor-password-title"),
    heading: title ?? t(lang, "visitor-password-title"),
    body:
      `<p>${say(lang, "visitor-password-text")}</p>${wrong ? `<p class="err" role="alert">${say(lang, "visitor-password-wrong")}</p>` : ""}` +
      `<form method="post"><input type="password" name="password" autocomplete="current-password" required autofocus aria-label="${say(lang, "visitor-password-label")}"><button type="submit">${say(lang, "visitor-password-open")}</button></form>`,
  });
}

/** The networks' no-JavaScript fallbacks; outside <noscript> they would count every visit a second time. */
function pixelFallback(p: PixelTag): string {
  const img = (src: string) => `<noscript><img src="${Bun.escapeHTML(src)}" width="1" height="1" alt="" hidden></noscript>`;
  switch (p.type) {
    case "facebook":
      return img(`https://www.facebook.com/tr?id=${encodeURIComponent(p.pixelId)}&ev=PageView&noscript=1`);
    case "yandex":
      return img(`https://mc.yandex.ru/watch/${encodeURIComponent(p.pixelId)}`);
    case "vk":
      return img(`https://vk.com/rtrg?p=${encodeURIComponent(p.pixelId)}`);
    default:
      return "";
  }
}

/**
 * Fires the pixels, then sends the visitor on: pixels.js runs each network's standard snippet for the
 * ids in the JSON data block (a data block never runs), the meta refresh is the fallback.
 */
export function pixelPage(lang: Language, title: string | null, target: string, pixels: PixelTag[]): string {
  const to = Bun.escapeHTML(target);
  const config = jsValue({ target, pixels: pixels.map((p) => ({ type: p.type, pixelId: p.pixelId })) });
  return page(lang, {
    title: title ?? t(lang, "visitor-redirect-title"),
    heading: title ?? t(lang, "visitor-redirect-title"),
    head: `<meta http-equiv="refresh" content="2;url=${to}">`,
    body:
      `<p>${say(lang, "visitor-redirect-text")}</p><p><a href="${to}" rel="noreferrer">${say(lang, "visitor-redirect-continue")}</a></p>` +
      pixels.map(pixelFallback).join("") +
      `<script type="application/json" id="pixel-config">${config}</script><script src="${PAGE_SCRIPTS.pixels}"></script>`,
  });
}

export const lockedPage = (lang: Language, title: string | null, seconds: number) =>
  page(lang, {
    title: title ?? t(lang, "visitor-locked-title"),
    heading: t(lang, "visitor-locked-title"),
    body: `<p>${say(lang, "visitor-locked-text", { minutes: Math.ceil(seconds / 60) })}</p>`,
  });
