/** Visits to codes that found no active link: the user's disabled and deleted links and unknown codes on their domains. */
import { useState } from "preact/hooks";
import { get } from "../api";
import { Async, Empty, fmtDate, html, useAsync } from "../ui";
import { PERIODS } from "./link-analytics";
import type { OrphanVisits as OrphanVisitsBody } from "../../../api/analytics/orphans";

export function OrphanVisits() {
  const [period, setPeriod] = useState("30d");
  const state = useAsync(() => get<OrphanVisitsBody>(`/api/orphan-visits?period=${period}`), [period]);
  return html`<div class="card orphan-visits"><h2>Visits to dead codes</h2>
    <p class="hint">Paused or deleted links, and mistyped codes on your domains.</p>
    <label>Period <select aria-label="Orphan visits period" value=${period} onChange=${(e: any) => setPeriod(e.currentTarget.value)}>
      ${PERIODS.map((p) => html`<option value=${p}>${p}</option>`)}</select></label>
    <${Async} state=${state}>${(o: { total: number; items: { code: string; count: number; lastAt: string }[] }) => !o.items.length
      ? html`<${Empty}>No visits to dead codes in this period.<//>`
      : html`<p><strong data-testid="orphan-total">${o.total}</strong> visits</p>
        <div class="table-wrap"><table class="orphans"><thead><tr><th>Code</th><th>Visits</th><th>Last</th></tr></thead>
        <tbody>${o.items.map((i) => html`<tr><td class="mono">${i.code}</td><td>${i.count}</td><td>${fmtDate(i.lastAt)}</td></tr>`)}</tbody></table></div>`}<//>
  </div>`;
}
