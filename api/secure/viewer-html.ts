/** HTML of the secure viewer and request pages: small, mobile-first, no scripts, everything escaped. */
import type { RevealJson, ViewJson } from "../../core/secure/view";

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

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><meta property="og:title" content="${esc(title)}"><title>${esc(title)}</title>
<style>${STYLE}</style></head><body><main><div class="card">${body}</div></main></body></html>`;
}

export function size(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

const utc = (iso: string) => new Date(iso).toUTCString().replace(" GMT", " UTC");
const viewsLeft = (n: number | null) => (n === null ? "unlimited" : String(n));

/**
 * The reveal step: what is shared and a button. Loading this page counts nothing, so mail scanners
 * and previewers that fetch it burn no view; the button posts the form, which counts one.
 */
export function revealPage(r: RevealJson, error?: string): string {
  const facts: [string, string][] = [["Kind", r.contentType]];
  if (r.name !== null) facts.push(["Name", r.name]);
  if (r.fileName !== null && r.contentType !== "text") facts.push(["File", r.fileName]);
  if (r.fileSize !== null) facts.push(["Size", size(r.fileSize)]);
  facts.push(["Available until", utc(r.expiresAt)], ["Views left", viewsLeft(r.viewsLeft)]);
  const password = r.hasPassword
    ? `<label for="password">Password</label><input id="password" name="password" type="password" required minlength="4" maxlength="128" autocomplete="off" autofocus>`
    : "";
  const once = r.viewsLeft === 1 ? " This is the last view: after it the link stops working." : "";
  return page(
    "A secure file was shared with you",
    `<h1>A secure file was shared with you</h1>
<dl>${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join("")}</dl>
${error ? `<p class="err" role="alert">${esc(error)}</p>` : ""}
<form method="post">${password}<button class="btn" type="submit" id="reveal">Show the ${r.contentType === "text" ? "text" : "file"}</button></form>
<p class="muted">Opening counts one view.${esc(once)}</p>`,
  );
}

/** The page for an opened link: text inline, image shown, video/audio playable with seeking, download offered. */
export function viewerPage(v: ViewJson): string {
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
  const left = v.viewsLeft === null ? "" : ` · ${v.viewsLeft} view${v.viewsLeft === 1 ? "" : "s"} left`;
  return page(
    v.name,
    `<h1>${esc(v.name)}</h1>
<p class="muted">${esc(v.fileName)} · ${size(v.fileSize)} · available until ${esc(utc(v.expiresAt))}${left}</p>
${v.description ? `<p>${esc(v.description)}</p>` : ""}${content}
<p><a class="btn" href="${esc(v.downloadUrl)}" download="${esc(v.fileName)}">Download</a></p>
<p class="muted">${v.preview ? "Your own preview: no view was counted." : "One view was counted. Keep this page open: the download works for a few hours from it."}</p>`,
  );
}

const STATES: Record<number, { icon: string; title: string; text: string }> = {
  403: { icon: "🔒", title: "Not available", text: "The owner has revoked this link or paused sharing. Ask them for a new link." },
  404: { icon: "🔍", title: "Link not found", text: "There is no secure file at this address. Check that the link was copied completely." },
  410: { icon: "⌛", title: "Link expired", text: "This link has expired or has been opened as many times as allowed." },
  429: { icon: "⏳", title: "Too many attempts", text: "Wait a while before trying again." },
};

/** The page for 403 (revoked/paused), 404 (unknown), 410 (expired/used up) and 429. */
export function statePage(status: number, message?: string): string {
  const s = STATES[status] ?? STATES[404]!;
  return page(
    s.title,
    `<p class="state">${s.icon}</p><h1>${s.title}</h1><p>${esc(message ?? s.text)}</p>${message ? `<p class="muted">${s.text}</p>` : ""}`,
  );
}

/** What link-preview bots get: no content, nothing counted. */
export function botPage(): string {
  return page(
    "A secure file was shared with you",
    `<h1>A secure file was shared with you</h1><p>Open the link in a browser to view it.</p>`,
  );
}
