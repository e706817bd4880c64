/** Settings card for custom short-link domains: add one, publish its TXT record, verify, remove. */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { Async, CopyButton, Empty, ErrorBox, confirmed, errorText, html, useAction, useAsync, inputValue } from "../ui";
import type { Domain } from "../../../api/links/model";
import { t } from "../i18n";

export function DomainsCard() {
  const domains = useAsync(() => call(client.api.domains.get()), []);
  const [hostname, setHostname] = useState("");
  const [error, setError] = useState<string | null>(null);
  const { busy, run } = useAction();
  // refusals (no record yet, taken) stay on the card: the user acts on their text
  const attempt = (fn: () => Promise<unknown>, ok: string) =>
    run(async () => {
      setError(null);
      try {
        await fn();
      } catch (e) {
        setError(errorText(e));
        throw e;
      }
      domains.reload();
    }, ok);
  const add = (e: Event) => {
    e.preventDefault();
    void attempt(async () => {
      await call(client.api.domains.post({ hostname: hostname.trim() }));
      setHostname("");
    }, t("app-domain-added"));
  };
  return html`<div class="card"><h2>${t("app-domains")}</h2>
    ${error && html`<${ErrorBox} error=${error} />`}
    <${Async} state=${domains}>${(list: Domain[]) =>
      list.length === 0
        ? html`<${Empty}>${t("app-domains-none")}<//>`
        : html`<ul class="list" data-testid="domains">${list.map(
            (d) => html`<li>
          <div class="row-line"><strong class="mono ellipsis">${d.hostname}</strong>
            <span class=${d.verified ? "badge ok" : "badge"}>${d.verified ? t("app-domain-verified") : t("app-domain-not-verified")}</span></div>
          ${
            !d.verified &&
            html`<div class="sub" data-testid="verification">
            <p class="hint">${t("app-domain-record-hint")}</p>
            <div class="row-line"><span>${t("app-domain-type")}</span><code class="mono">${d.verification.type}</code></div>
            <div class="row-line"><span>${t("app-domain-name")}</span><code class="mono ellipsis">${d.verification.name}</code><${CopyButton} text=${d.verification.name} /></div>
            <div class="row-line"><span>${t("app-domain-value")}</span><code class="mono ellipsis">${d.verification.value}</code><${CopyButton} text=${d.verification.value} /></div>
            <button class="btn small" disabled=${busy} onClick=${() => attempt(() => call(client.api.domains({ id: d.id }).verify.post({})), t("app-domain-verified-toast", { hostname: d.hostname }))}>${t("app-verify")}</button></div>`
          }
          <button class="btn small danger" disabled=${busy} onClick=${() => confirmed(t("app-domain-remove-confirm", { hostname: d.hostname })) && attempt(() => call(client.api.domains({ id: d.id }).delete()), t("app-domain-removed"))}>${t("app-remove")}</button>
        </li>`,
          )}</ul>`}<//>
    <form class="inline" onSubmit=${add}><input name="hostname" required placeholder="go.example.com" aria-label=${t("app-domain-hostname")} value=${hostname} onInput=${(e: Event) => setHostname(inputValue(e))} />
      <button class="btn" disabled=${busy}>${t("app-domain-add")}</button></form></div>`;
}
