/** HTML of the secure viewer page: small, mobile-first, no scripts, everything escaped. */
import type { ViewJson } from "../../core/secure/view";

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f4f5f7;color:#1d2330}
main{max-width:820px;margin:0 auto;padding:16px}.card{background:#fff;border-radius:14px;padding:16px;box-shadow:0 1px 3px #0002}
h1{font-size:1.25rem;margin:0 0 4px;word-break:break-word}.muted{color:#667;font-size:.9rem;margin:0 0 12px}
img,video{display:block;max-width:100%;max-height:75vh;margin:12px auto;border-radius:8px;background:#000}audio{width:100%;margin:12px 0}
pre{white-space:pre-wrap;word-break:break-word;background:#f7f7f9;padding:12px;border-radius:8px;font:14px/1.45 ui-monospace,monospace;max-height:70vh;overflow:auto}
.btn{display:inline-block;padding:12px 18px;border-radius:10px;background:#2a6df4;color:#fff;text-decoration:none;font-weight:600}
.state{font-size:3rem;margin:0}@media (prefers-color-scheme:dark){body{background:#15171c;color:#e6e8ee}.card{background:#1f232b}pre{background:#15171c}.muted{color:#99a}}`;

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><meta property="og:title" content="${escapeHtml(title)}"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body><main><div class="card">${body}</div></main></body></html>`;
}

function size(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The page for an opened link: text inline, image shown, video/audio playable with seeking, download offered. */
export function viewerPage(v: ViewJson): string {
  const stream = escapeHtml(v.streamUrl);
  let content: string;
  switch (v.contentType) {
    case "text":
      content = `<pre>${escapeHtml((v.lines ?? []).join("\n"))}</pre>`;
      break;
    case "image":
      content = `<img src="${stream}" alt="${escapeHtml(v.name)}">`;
      break;
    case "video":
      content = `<video controls playsinline preload="metadata" src="${stream}"></video>`;
      break;
    case "audio":
      content = `<audio controls preload="metadata" src="${stream}"></audio>`;
      break;
    default:
      content = `<p>${escapeHtml(v.fileName)} · ${escapeHtml(v.mimeType)}</p>`;
  }
  const left = v.viewsLeft === null ? "" : ` · ${v.viewsLeft} view${v.viewsLeft === 1 ? "" : "s"} left`;
  const expires = new Date(v.expiresAt).toUTCString().replace(" GMT", " UTC");
  return page(
    v.name,
    `<h1>${escapeHtml(v.name)}</h1>
<p class="muted">${escapeHtml(v.fileName)} · ${size(v.fileSize)} · available until ${escapeHtml(expires)}${left}</p>
${v.description ? `<p>${escapeHtml(v.description)}</p>` : ""}${content}
<p><a class="btn" href="${escapeHtml(v.downloadUrl)}" download="${escapeHtml(v.fileName)}">Download</a></p>
<p class="muted">${v.preview ? "Your own preview: no view was counted." : "This page counted one view. Reloading it counts another."}</p>`,
  );
}

const STATES: Record<number, { icon: string; title: string; text: string }> = {
  403: { icon: "🔒", title: "Not available", text: "The owner has revoked this link or paused sharing. Ask them for a new link." },
  404: { icon: "🔍", title: "Link not found", text: "There is no secure file at this address. Check that the link was copied completely." },
  410: { icon: "⌛", title: "Link expired", text: "This link has expired or has been opened as many times as allowed." },
};

/** The page for 403 (revoked/paused), 404 (unknown) and 410 (expired/used up). */
export function statePage(status: number, message?: string): string {
  const s = STATES[status] ?? STATES[404]!;
  return page(s.title, `<p class="state">${s.icon}</p><h1>${s.title}</h1><p>${escapeHtml(message ?? s.text)}</p>${message ? `<p class="muted">${s.text}</p>` : ""}`);
}

/** What link-preview bots get: no content, nothing counted. */
export function botPage(): string {
  return page("A secure file was shared with you", `<h1>A secure file was shared with you</h1><p>Open the link in a browser to view it.</p>`);
}
