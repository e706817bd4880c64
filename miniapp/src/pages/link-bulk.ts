/** Bulk create: one URL per line, up to 100; shows created links and failures. */
import { useRef, useState } from "preact/hooks";
import { post } from "../api";
import { useMainButton } from "../telegram";
import { CopyButton, ErrorBox, html, useSubmit } from "../ui";
import type { BulkResult } from "../../../api/links/model";



export function BulkPage() {
  const [text, setText] = useState("");
  const { busy, error, setError, attempt } = useSubmit();
  const [result, setResult] = useState<BulkResult | null>(null);
  const urls = text.split(/\r?\n/).map((s) => s.trim()).filter(Boolean);

  const run = async () => {
    if (!urls.length) return setError("Paste at least one URL.");
    if (urls.length > 100) return setError(`At most 100 URLs at once (you have ${urls.length}).`);
    await attempt(async () => setResult(await post<BulkResult>("/api/links/bulk", { urls })));
  };
  const form = useRef<HTMLFormElement>(null);
  const native = useMainButton(urls.length ? `Create ${urls.length} link${urls.length === 1 ? "" : "s"}` : "Create links", form, { busy, enabled: urls.length > 0 });

  return html`<section>
    <h1>Bulk create</h1>
    <form class="card form" ref=${form} onSubmit=${(e: Event) => (e.preventDefault(), void run())}>
      ${error && html`<${ErrorBox} error=${error} />`}
      <label class="field"><span class="label">URLs, one per line (1–100, with https://)</span>
        <textarea rows="8" name="urls" value=${text} onInput=${(e: any) => setText(e.currentTarget.value)}
          placeholder=${"https://example.com/a\nhttps://example.com/b"}></textarea></label>
      <small class="hint">${urls.length} URL${urls.length === 1 ? "" : "s"}</small>
      ${!native && html`<button class="btn primary" disabled=${busy || !urls.length}>${busy ? "Creating…" : "Create links"}</button>`}
    </form>
    ${result && html`<div class="card">
      <p><strong>${result.created}</strong> created, <strong>${result.errors}</strong> failed.</p>
      <ul class="list compact">${result.results.map((r) => html`<li class="row-line">
        <span class="ellipsis">${r.trackingUrl}</span><${CopyButton} text=${r.trackingUrl} /></li>`)}</ul>
      ${result.failed.length > 0 && html`<h3>Failed</h3><ul class="list compact">${result.failed.map((f) => html`<li class="row-line error-text">
        <span class="ellipsis">${f.url}</span><small>${f.error}</small></li>`)}</ul>`}
    </div>`}
  </section>`;
}
