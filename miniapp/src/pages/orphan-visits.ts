/** Visits to codes that found no active link: the user's disabled and deleted links and unknown codes on their domains. */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { Async, Empty, fmtDate, html, useAsync, inputValue } from "../ui";
import { PERIODS } from "./link-analytics";
import { fmtNumber, t } from "../i18n";

export function OrphanVisits() {
  const [period, setPeriod] = useState("30d");
  const state = useAsync(() => call(client.api["orphan-visits"].get({ query: { period } })), [period]);
  return html`<div class="card orphan-visits"><h2>${t("app-orphans-title")}</h2>
    <p class="hint">${t("app-orphans-hint")}</p>
    <label>${t("app-period")} <select aria-label=${t("app-orphans-period")} value=${period} onChange=${(e: Event) => setPeriod(inputValue(e))}>
      ${PERIODS.map((p) => html`<option value=${p}>${t(`app-period-${p}`)}</option>`)}</select></label>
    <${Async} state=${state}>${(o: { total: number; items: { code: string; count: number; lastAt: string }[] }) =>
      !o.items.length
        ? html`<${Empty}>${t("app-orphans-none")}<//>`
        : html`<p><strong data-testid="orphan-total">${fmtNumber(o.total)}</strong> ${t("app-orphans-visits", { count: o.total })}</p>
        <div class="table-wrap"><table class="orphans"><thead><tr><th>${t("app-orphans-code")}</th><th>${t("app-orphans-count")}</th><th>${t("app-orphans-last")}</th></tr></thead>
        <tbody>${o.items.map((i) => html`<tr><td class="mono">${i.code}</td><td>${fmtNumber(i.count)}</td><td>${fmtDate(i.lastAt)}</td></tr>`)}</tbody></table></div>`}<//>
  </div>`;
}
