/** The analytics page's side-by-side of a link's A/B variants, and the clicks each redirect rule sent. */
import { ChartView, groupedBarConfig } from "../charts";
import { html } from "../ui";
import type { LinkStats } from "../../../api/analytics/model";

type VariantStat = LinkStats["variants"][number];
type RuleStat = LinkStats["rules"][number];

const letter = (i: number) => String.fromCharCode(65 + i);
const pct = (n: number, of: number) => (of ? `${Math.round((n * 1000) / of) / 10}%` : "—");

export function RoutingComparison({ variants, rules }: { variants?: VariantStat[]; rules?: RuleStat[] }) {
  const vs = variants ?? [];
  const rs = rules ?? [];
  if (!vs.length && !rs.length) return null;
  const total = vs.reduce((s, v) => s + v.clicks, 0);
  return html`<div class="grid2">
    ${vs.length > 0 && html`<div class="card variants-card"><h2>A/B variants</h2>
      <${ChartView} label="Clicks and unique clicks by variant" height=${200}
        config=${groupedBarConfig(vs.map((v) => letter(v.index)), [
          { label: "Clicks", data: vs.map((v) => v.clicks) },
          { label: "Unique", data: vs.map((v) => v.uniqueClicks) },
        ])} />
      <div class="table-wrap"><table class="variants">
        <thead><tr><th>Variant</th><th>URL</th><th>Clicks</th><th>Unique</th><th>Share</th></tr></thead>
        <tbody>${vs.map((v) => html`<tr data-variant=${v.index}><th>${letter(v.index)}</th><td class="ellipsis">${v.url}</td>
          <td>${v.clicks}</td><td>${v.uniqueClicks}</td><td>${pct(v.clicks, total)}</td></tr>`)}</tbody></table></div>
    </div>`}
    ${rs.length > 0 && html`<div class="card rules-card"><h2>Redirect rules</h2>
      <ul class="list compact">${rs.map((r) => html`<li class="row-line" data-rule=${r.index}><span>Rule ${r.index + 1}</span><strong>${r.clicks}</strong></li>`)}</ul>
    </div>`}
  </div>`;
}
