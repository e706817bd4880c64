/** HTML of the request-link page SHORT_URL/r/<code>: a file form and a text form, no scripts. */
import type { RequestRow } from "../../core/secure/requests";
import { t, type Language } from "../../core/i18n/translate";
import { page, say, size, utc } from "./viewer-html";

const esc = Bun.escapeHTML;

/** The page where anyone sends the owner a file (≤ 10 MB) or a text. */
export function requestPage(lang: Language, r: RequestRow): string {
  const title = r.title || t(lang, "request-page-title");
  const facts: string[] = [];
  if (r.maxFiles !== null) facts.push(t(lang, "request-page-items-left", { count: r.maxFiles - r.filesReceived }));
  if (r.expiresAt) facts.push(t(lang, "request-page-open-until", { time: utc(lang, r.expiresAt) }));
  const code = encodeURIComponent(r.code);
  return page(
    lang,
    title,
    `<h1>${esc(title)}</h1>
<p class="muted">${say(lang, "request-page-intro")}${facts.length ? ` ${esc(facts.join(" · "))}.` : ""}</p>
<form method="post" action="/r/${code}/upload" enctype="multipart/form-data">
<label for="file">${say(lang, "request-page-file")}</label><input id="file" name="file" type="file" required>
<button class="btn" type="submit">${say(lang, "request-page-send-file")}</button></form>
<hr>
<form method="post" action="/r/${code}/text">
<label for="text">${say(lang, "request-page-or-text")}</label><textarea id="text" name="text" rows="6" required maxlength="524288"></textarea>
<button class="btn" type="submit">${say(lang, "request-page-send-text")}</button></form>`,
  );
}

/** The answer after an item arrived. */
export function receivedPage(
  lang: Language,
  done: { kind: "file" | "text"; name: string; size: number; itemsLeft: number | null },
  code: string,
): string {
  const more =
    done.itemsLeft === 0 ? "" : `<p><a class="btn" href="/r/${encodeURIComponent(code)}">${say(lang, "request-page-send-another")}</a></p>`;
  const delivered =
    done.kind === "text"
      ? say(lang, "request-page-text-delivered")
      : say(lang, "request-page-file-delivered", { file: `${done.name} (${size(lang, done.size)})` });
  return page(
    lang,
    t(lang, "request-page-received"),
    `<p class="state">✅</p><h1>${say(lang, "request-page-received")}</h1><p>${delivered}</p>${more}`,
  );
}

/** Refusals of what a sender sent (not of the link itself), each said by its own key. */
const SENDER_REFUSALS: Record<string, string> = {
  plan_limit: "secure-error-plan_limit",
  request_storage_full: "secure-error-request_storage_full",
  upload_too_slow: "secure-error-upload_too_slow",
  upload_stalled: "secure-error-upload_stalled",
  file_too_large: "secure-error-file_too_large",
};

/**
 * The page for a sending the link refused though the link itself works: the owner's storage full, the
 * link's own share used up, an upload cut off, a file too large, an empty or too long text (`said`, a
 * validation error in the reader's words). Nothing was kept; the sender may try again.
 */
export function notReceivedPage(lang: Language, code: string, reason: string, said?: string): string | null {
  const key = SENDER_REFUSALS[reason];
  if (!key && said === undefined) return null;
  const why = key ? say(lang, key) : esc(said!);
  return page(
    lang,
    t(lang, "request-page-not-received"),
    `<p class="state">⚠️</p><h1>${say(lang, "request-page-not-received")}</h1><p>${why}</p><p class="muted">${say(lang, "request-page-nothing-kept")}</p>` +
      `<p><a class="btn" href="/r/${encodeURIComponent(code)}">${say(lang, "request-page-try-again")}</a></p>`,
  );
}
