/** The analytics page's side-by-side of a link's A/B variants, and the clicks each redirect rule sent. */
import { ChartView, groupedBarConfig } from "../charts";
import { html } from "../ui";
import { fmtNumber, t } from "../i18n";
import type { LinkStats } from "../../../api/analytics/model";

type VariantStat = LinkStats["variants"][number];
type RuleStat = LinkStats["rules"][number];

const letter = (i: number) => String.fromCharCode(65 + i);
const pct = (n: number, of: number) => (of ? fmtNumber(n / of, { style: "percent", maximumFractionDigits: 1 }) : "—");

export function RoutingComparison({ variants, rules }: { variants?: VariantStat[]; rules?: RuleStat[] }) {
  const vs = variants ?? [];
  const rs = rules ?? [];
  if (!vs.length && !rs.length) return null;
  const total = vs.reduce((s, v) => s + v.clicks, 0);
  return html`<div class="grid2">
    ${
      vs.length > 0 &&
      html`<div class="card variants-card"><h2>${t("app-variants")}</h2>
      <${ChartView} label=${t("app-variants-label")} height=${200}
        config=${groupedBarConfig(
          vs.map((v) => letter(v.index)),
          [
            { label: t("app-clicks-label"), data: vs.map((v) => v.clicks) },
            { label: t("app-unique"), data: vs.map((v) => v.uniqueClicks) },
          ],
        )} />
      <div class="table-wrap"><table class="variants">
        <thead><tr><th>${t("app-variant")}</th><th>${t("app-url")}</th><th>${t("app-clicks-label")}</th><th>${t("app-unique")}</th><th>${t("app-share")}</th></tr></thead>
        <tbody>${vs.map(
          (v) => html`<tr data-variant=${v.index}><th>${letter(v.index)}</th><td class="ellipsis">${v.url}</td>
          <td>${fmtNumber(v.clicks)}</td><td>${fmtNumber(v.uniqueClicks)}</td><td>${pct(v.clicks, total)}</td></tr>`,
        )}</tbody></table></div>
    </div>`
    }
    ${
      rs.length > 0 &&
      html`<div class="card rules-card"><h2>${t("app-rules")}</h2>
      <ul class="list compact">${rs.map((r) => html`<li class="row-line" data-rule=${r.index}><span>${t("app-rule", { n: r.index + 1 })}</span><strong>${fmtNumber(r.clicks)}</strong></li>`)}</ul>
    </div>`
    }
  </div>`;
}
