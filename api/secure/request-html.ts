/** HTML of the request-link page SHORT_URL/r/<code>: a file form and a text form, no scripts. */
import type { RequestRow } from "../../core/secure/requests";
import { page, size } from "./viewer-html";

const esc = Bun.escapeHTML;

/** The page where anyone sends the owner a file (≤ 10 MB) or a text. */
export function requestPage(r: RequestRow): string {
  const title = r.title || "Send a file";
  const facts: string[] = [];
  if (r.maxFiles !== null) facts.push(`${r.maxFiles - r.filesReceived} item(s) can still be sent`);
  if (r.expiresAt) facts.push(`open until ${r.expiresAt.toUTCString().replace(" GMT", " UTC")}`);
  const code = encodeURIComponent(r.code);
  return page(
    title,
    `<h1>${esc(title)}</h1>
<p class="muted">Someone asked you to send them a file or a text. No account is needed.${facts.length ? ` ${esc(facts.join(" · "))}.` : ""}</p>
<form method="post" action="/r/${code}/upload" enctype="multipart/form-data">
<label for="file">File (at most 10 MB)</label><input id="file" name="file" type="file" required>
<button class="btn" type="submit">Send the file</button></form>
<hr>
<form method="post" action="/r/${code}/text">
<label for="text">Or a text</label><textarea id="text" name="text" rows="6" required maxlength="524288"></textarea>
<button class="btn" type="submit">Send the text</button></form>`,
  );
}

/** The answer after an item arrived. */
export function receivedPage(done: { kind: "file" | "text"; name: string; size: number; itemsLeft: number | null }, code: string): string {
  const more = done.itemsLeft === 0 ? "" : `<p><a class="btn" href="/r/${encodeURIComponent(code)}">Send another</a></p>`;
  return page(
    "Received",
    `<p class="state">✅</p><h1>Received</h1><p>${done.kind === "text" ? "Your text" : `${esc(done.name)} (${size(done.size)})`} has been delivered.</p>${more}`,
  );
}
