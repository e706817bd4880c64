/** HTML of the secure viewer and request pages: small, mobile-first, no scripts, everything escaped. */
import type { RevealJson, ViewJson } from "../../core/secure/view";
import { t, type Language } from "../../core/i18n/translate";

const esc = Bun.escapeHTML;

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f4f5f7;color:#1d2330}
main{max-width:820px;margin:0 auto;padding:16px}.card{background:#fff;border-radius:14px;padding:16px;box-shadow:0 1px 3px #0002}
h1{font-size:1.25rem;margin:0 0 4px;word-break:break-word}.muted{color:#667;font-size:.9rem;margin:0 0 12px}
img,video{display:block;max-width:100%;max-height:75vh;margin:12px auto;border-radius:8px;background:#000}audio{width:100%;margin:12px 0}
pre{white-space:pre-wrap;word-break:break-word;background:#f7f7f9;padding:12px;border-radius:8px;font:14px/1.45 ui-monospace,monospace;max-height:70vh;overflow:auto}
.btn{display:inline-block;padding:12px 18px;border:0;border-radius:10px;background:#2a6df4;color:#fff;text-decoration:none;font:600 16px system-ui,sans-serif;cursor:pointer}
input,textarea{width:100%;font:16px system-ui,sans-serif;padding:10px;margin:4px 0 12px;border:1px solid #ccd;border-radius:8px;background:inherit;color:inherit}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:12px 0}dt{color:#667}dd{margin:0;word-break:break-word}.err{color:#c0392b;font-weight:600}
.state{font-size:3rem;margin:0}@media (prefers-color-scheme:dark){body{background:#15171c;color:#e6e8ee}.card{background:#1f232b}pre{background:#15171c}.muted,dt{color:#99a}}`;

export function page(lang: Language, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><meta property="og:title" content="${esc(title)}"><title>${esc(title)}</title>
<style>${STYLE}</style></head><body><main><div class="card">${body}</div></main></body></html>`;
}

/** Page text in `lang`, escaped for HTML. */
export const say = (lang: Language, key: string, vars?: Record<string, string | number>) => esc(t(lang, key, vars));

export function size(lang: Language, n: number): string {
  if (n < 1024) return t(lang, "secure-page-bytes", { size: n });
  const format = (v: number) => new Intl.NumberFormat(lang, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(v);
  if (n < 1024 * 1024) return t(lang, "secure-page-kilobytes", { size: format(n / 1024) });
  return t(lang, "secure-page-megabytes", { size: format(n / 1024 / 1024) });
}

/** A moment as the pages show it, in UTC (the page knows nothing of the visitor's zone). */
export const utc = (lang: Language, at: string | Date) =>
  `${new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(at))} UTC`;

/**
 * The reveal step: what is shared and a button. Loading this page counts nothing, so mail scanners
 * and previewers that fetch it burn no view; the button posts the form, which counts one.
 * `errorCode`: the code of the refusal to show above the button (a wrong or missing password).
 */
export function revealPage(lang: Language, r: RevealJson, errorCode?: string): string {
  const facts: [string, string][] = [[t(lang, "secure-page-kind"), t(lang, `secure-page-kind-${r.contentType}`)]];
  if (r.name !== null) facts.push([t(lang, "secure-page-name"), r.name]);
  if (r.fileName !== null && r.contentType !== "text") facts.push([t(lang, "secure-page-file"), r.fileName]);
  if (r.fileSize !== null) facts.push([t(lang, "secure-page-size"), size(lang, r.fileSize)]);
  facts.push(
    [t(lang, "secure-page-until"), utc(lang, r.expiresAt)],
    [t(lang, "secure-page-views-left"), r.viewsLeft === null ? t(lang, "secure-page-unlimited") : String(r.viewsLeft)],
  );
  const password = r.hasPassword
    ? `<label for="password">${say(lang, "secure-page-password")}</label><input id="password" name="password" type="password" required minlength="4" maxlength="128" autocomplete="off" autofocus>`
    : "";
  const once = r.viewsLeft === 1 ? ` ${say(lang, "secure-page-last-view")}` : "";
  const error =
    errorCode === "password_required" || errorCode === "password_invalid" ? say(lang, `secure-page-${errorCode.replace("_", "-")}`) : "";
  return page(
    lang,
    t(lang, "secure-page-shared"),
    `<h1>${say(lang, "secure-page-shared")}</h1>
<dl>${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join("")}</dl>
${error ? `<p class="err" role="alert">${error}</p>` : ""}
<form method="post">${password}<button class="btn" type="submit" id="reveal">${say(lang, r.contentType === "text" ? "secure-page-show-text" : "secure-page-show-file")}</button></form>
<p class="muted">${say(lang, "secure-page-counts-one")}${once}</p>`,
  );
}

/** The page for an opened link: text inline, image shown, video/audio playable with seeking, download offered. */
export function viewerPage(lang: Language, v: ViewJson): string {
  const stream = esc(v.streamUrl);
  let content: string;
  switch (v.contentType) {
    case "text":
      content = `<pre>${esc((v.lines ?? []).join("\n"))}</pre>`;
      break;
    case "image":
      content = `<img src="${stream}" alt="${esc(v.name)}">`;
      break;
    case "video":
      content = `<video controls playsinline preload="metadata" src="${stream}"></video>`;
      break;
    case "audio":
      content = `<audio controls preload="metadata" src="${stream}"></audio>`;
      break;
    default:
      content = `<p>${esc(v.fileName)} · ${esc(v.mimeType)}</p>`;
  }
  const facts = [v.fileName, size(lang, v.fileSize), t(lang, "secure-page-available-until", { time: utc(lang, v.expiresAt) })];
  if (v.viewsLeft !== null) facts.push(t(lang, "secure-page-views-left-note", { count: v.viewsLeft }));
  return page(
    lang,
    v.name,
    `<h1>${esc(v.name)}</h1>
<p class="muted">${esc(facts.join(" · "))}</p>
${v.description ? `<p>${esc(v.description)}</p>` : ""}${content}
<p><a class="btn" href="${esc(v.downloadUrl)}" download="${esc(v.fileName)}">${say(lang, "secure-page-download")}</a></p>
<p class="muted">${say(lang, v.preview ? "secure-page-preview" : "secure-page-counted")}</p>`,
  );
}

const ICONS: Record<number, string> = { 403: "🔒", 404: "🔍", 410: "⌛", 429: "⏳" };
/** The refusals a state page explains in words of its own (core's error codes). */
const EXPLAINED = new Set([
  "link_revoked",
  "folder_paused",
  "link_expired",
  "views_exhausted",
  "request_inactive",
  "request_expired",
  "request_full",
  "request_not_found",
  "file_too_large",
]);

/**
 * The page for 403 (revoked/paused), 404 (unknown), 410 (expired/used up), 413 and 429; `code`, when
 * it is one the page explains, adds the reason above the general text.
 */
export function statePage(lang: Language, status: number, code?: string): string {
  const known = status in ICONS ? status : 404;
  const title = t(lang, `secure-page-${known}-title`);
  const reason = code && EXPLAINED.has(code) ? `<p>${say(lang, `secure-error-${code}`)}</p>` : "";
  return page(
    lang,
    title,
    `<p class="state">${ICONS[known]}</p><h1>${esc(title)}</h1>${reason}<p${reason ? ' class="muted"' : ""}>${say(lang, `secure-page-${known}-text`)}</p>`,
  );
}

/** What link-preview bots get: no content, nothing counted. */
export function botPage(lang: Language): string {
  return page(
    lang,
    t(lang, "secure-page-shared"),
    `<h1>${say(lang, "secure-page-shared")}</h1><p>${say(lang, "secure-page-open-in-browser")}</p>`,
  );
}
