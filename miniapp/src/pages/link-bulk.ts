/** Bulk create: one URL per line, up to 100; shows created links and failures. */
import { useRef, useState } from "preact/hooks";
import { call, client } from "../api";
import { useMainButton } from "../telegram";
import { CopyButton, ErrorBox, html, useSubmit, inputValue } from "../ui";
import type { BulkResult } from "../../../api/links/model";
import { t } from "../i18n";

export function BulkPage() {
  const [text, setText] = useState("");
  const { busy, error, setError, attempt } = useSubmit();
  const [result, setResult] = useState<BulkResult | null>(null);
  const urls = text
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);

  const run = async () => {
    if (!urls.length) return setError(t("app-bulk-none"));
    if (urls.length > 100) return setError(t("app-bulk-too-many", { count: urls.length }));
    await attempt(async () => setResult(await call(client.api.links.bulk.post({ urls }))));
  };
  const form = useRef<HTMLFormElement>(null);
  const native = useMainButton(urls.length ? t("app-bulk-create-n", { count: urls.length }) : t("app-bulk-create"), form, {
    busy,
    enabled: urls.length > 0,
  });

  return html`<section>
    <h1>${t("app-bulk-title")}</h1>
    <form class="card form" ref=${form} onSubmit=${(e: Event) => (e.preventDefault(), void run())}>
      ${error && html`<${ErrorBox} error=${error} />`}
      <label class="field"><span class="label">${t("app-bulk-label")}</span>
        <textarea rows="8" name="urls" value=${text} onInput=${(e: Event) => setText(inputValue(e))}
          placeholder=${"https://example.com/a\nhttps://example.com/b"}></textarea></label>
      <small class="hint">${t("app-bulk-count", { count: urls.length })}</small>
      ${!native && html`<button class="btn primary" disabled=${busy || !urls.length}>${busy ? t("app-creating") : t("app-bulk-create")}</button>`}
    </form>
    ${
      result &&
      html`<div class="card">
      <p>${t("app-bulk-result", { created: result.created, failed: result.errors })}</p>
      <ul class="list compact">${result.results.map(
        (r) => html`<li class="row-line">
        <span class="ellipsis">${r.trackingUrl}</span><${CopyButton} text=${r.trackingUrl} /></li>`,
      )}</ul>
      ${
        result.failed.length > 0 &&
        html`<h3>${t("app-bulk-failed")}</h3><ul class="list compact">${result.failed.map(
          (f) => html`<li class="row-line error-text">
        <span class="ellipsis">${f.url}</span><small>${f.error}</small></li>`,
        )}</ul>`
      }
    </div>`
    }
  </section>`;
}
