/**
 * Ads: the account's placements in one table for a period, sorted by any column (a click on its
 * heading; again for the other direction), cheapest subscriber who stayed first; a placement's page
 * with its funnel from the post's views to who stayed, and the curve of the post's views (placed by
 * time, labelled in local time). The table goes to the Telegram chat as CSV or XLSX.
 */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { linkTo } from "../router";
import { Async, Empty, fmtDate, html, useAction, useAsync, inputValue } from "../ui";
import { ChartView, timeLineConfig } from "../charts";
import { fmtNumber, t } from "../i18n";
import { Conversions } from "./conversions";
import { money } from "../money";

/**
 * The account's placements over a period in the table's order: the API sorts them, so that amounts of
 * money are compared only within one currency (the account's own first), as the bot and the exports do.
 */
const listPlacements = (period: string, sort: ApiSort, order: Order) => call(client.api.placements.get({ query: { period, sort, order } }));
type ApiSort = "name" | "cost" | "cost_per_retained" | "stayed_d7" | "joins" | "unique_clicks" | "views" | "cost_per_join";
type Placement = Awaited<ReturnType<typeof listPlacements>>[number];
type Order = "asc" | "desc";

const PERIODS = ["30d", "7d", "90d", "all"];

const count = (n: number | null | undefined) => (n === null || n === undefined ? "—" : fmtNumber(n));
const pct = (r: number | null | undefined) => (r === null || r === undefined ? "—" : `${Math.round(r * 100)} %`);

/** The table's columns, the figure that judges an ad next to its price (a phone shows the first four): each a heading, how its cell reads, the order the API sorts it by, and the direction of a first click on it (costs cheapest first). */
const COLUMNS: { key: ApiSort; label: string; cell: (p: Placement) => string; first: Order }[] = [
  { key: "name", label: "app-ads-col-name", cell: (p) => p.name, first: "asc" },
  { key: "cost", label: "app-ads-col-price", cell: (p) => money(p.cost?.amount, p.cost?.currency), first: "desc" },
  {
    key: "cost_per_retained",
    label: "app-ads-col-per-stayed",
    cell: (p) => money(p.stats.cost_per_retained, p.cost?.currency),
    first: "asc",
  },
  { key: "stayed_d7", label: "app-ads-col-stayed", cell: (p) => count(p.stats.stayed.d7.stayed), first: "desc" },
  { key: "joins", label: "app-ads-col-joins", cell: (p) => count(p.stats.joins), first: "desc" },
  { key: "unique_clicks", label: "app-ads-col-clicks", cell: (p) => count(p.stats.unique_clicks), first: "desc" },
  { key: "views", label: "app-ads-col-views", cell: (p) => count(p.stats.views), first: "desc" },
  {
    key: "cost_per_join",
    label: "app-ads-col-per-join",
    cell: (p) => money(p.stats.cost_per_join, p.cost?.currency),
    first: "asc",
  },
];

export function AdsPage() {
  const [period, setPeriod] = useState("30d");
  const [sort, setSort] = useState<{ key: ApiSort; order: Order }>({ key: "cost_per_retained", order: "asc" });
  const data = useAsync(() => listPlacements(period, sort.key, sort.order), [period, sort.key, sort.order]);
  const [format, setFormat] = useState("csv");
  const [sent, setSent] = useState<string | null>(null);
  const { busy, run } = useAction();
  // the rows in the table's order; worded here from the answer's figures (the API's message is English)
  const send = () =>
    run(async () => {
      const r = await call(client.api.placements.export.post({ format, period, sort: sort.key, order: sort.order }));
      setSent(t("app-ads-sent", { rows: r.rows }));
    });
  const by = (key: ApiSort) =>
    setSort((s) =>
      s.key === key ? { key, order: s.order === "asc" ? "desc" : "asc" } : { key, order: COLUMNS.find((c) => c.key === key)!.first },
    );
  return html`<section>
    <header class="page-head"><h1>${t("app-ads-title")}</h1></header>
    <div class="chips" role="group" aria-label=${t("app-ads-period")}>
      ${PERIODS.map(
        (p) =>
          html`<button type="button" class=${period === p ? "chip on" : "chip"} aria-pressed=${period === p} onClick=${() => setPeriod(p)}>${t(`app-ads-period-${p}`)}</button>`,
      )}
    </div>
    <${Async} state=${data}>${(list: Placement[]) =>
      list.length === 0
        ? html`<${Empty}>${t("app-ads-none")}<//>`
        : html`<div class="table-wrap"><table class="clicks" data-testid="ads"><thead><tr>${COLUMNS.map(
            (c) => html`<th aria-sort=${sort.key === c.key ? (sort.order === "asc" ? "ascending" : "descending") : "none"}>
              <button type="button" class="sort" onClick=${() => by(c.key)}>${t(c.label)}${sort.key === c.key ? (sort.order === "asc" ? " ▲" : " ▼") : ""}</button></th>`,
          )}</tr></thead>
          <tbody>${list.map(
            (p) =>
              html`<tr key=${p.id}>${COLUMNS.map((c, i) =>
                i === 0
                  ? html`<td><a href=${`/app/ads/${p.id}`} onClick=${linkTo(`/ads/${p.id}`)}>${p.name}</a><div class="row-sub">${venueOf(p)}</div></td>`
                  : html`<td>${c.cell(p)}</td>`,
              )}</tr>`,
          )}</tbody></table></div>
          <p class="hint">${t("app-ads-hint")}</p>
          <p><span class="inline"><select aria-label=${t("app-export-format")} value=${format} onChange=${(e: Event) => setFormat(inputValue(e))}>
            <option value="csv">CSV</option><option value="xlsx">Excel</option></select>
            <button class="btn small" disabled=${busy} onClick=${send}>${t("app-ads-send")}</button></span></p>
          ${sent && html`<p class="note">${sent}</p>`}`}<//>
  </section>`;
}

const venueOf = (p: Placement) => (p.venue.kind === "telegram" ? `@${p.venue.username}` : p.venue.title);

/** The funnel: each step a bar as wide as its share of the views (or of the clicks when no views are known). */
function Funnel({ p }: { p: Placement }) {
  const s = p.stats;
  const cur = p.cost?.currency;
  const steps = [
    { label: t("app-ads-step-views"), n: s.views, cost: s.cpm === null ? "" : t("app-ads-cpm", { cost: money(s.cpm, cur) }) },
    { label: t("app-ads-step-clicks"), n: s.unique_clicks, cost: s.cpc === null ? "" : t("app-ads-cpc", { cost: money(s.cpc, cur) }) },
    {
      label: t("app-ads-step-joins"),
      n: s.joins,
      cost: s.cost_per_join === null ? "" : t("app-ads-per-join", { cost: money(s.cost_per_join, cur) }),
    },
    { label: t("app-ads-step-h24"), n: s.stayed.h24.stayed, cost: pct(s.stayed.h24.rate) },
    {
      label: t("app-ads-step-d7"),
      n: s.stayed.d7.stayed,
      cost: `${pct(s.stayed.d7.rate)}${s.cost_per_retained === null ? "" : ` · ${t("app-ads-per-stayed", { cost: money(s.cost_per_retained, cur) })}`}`,
    },
    { label: t("app-ads-step-d30"), n: s.stayed.d30.stayed, cost: pct(s.stayed.d30.rate) },
  ];
  const top = Math.max(1, ...steps.map((x) => x.n ?? 0));
  return html`<ol class="funnel" data-testid="funnel">${steps.map(
    (x) => html`<li><div class="row-line"><span>${x.label}</span><strong>${count(x.n)}</strong></div>
      <div class="progress thin"><div class="bar" style=${`width:${Math.round(((x.n ?? 0) / top) * 100)}%`}></div></div>
      ${x.cost && html`<div class="row-sub">${x.cost}</div>`}</li>`,
  )}</ol>`;
}

export function AdPage({ id }: { id: string }) {
  const placement = useAsync(() => call(client.api.placements({ id }).get()), [id]);
  const views = useAsync(() => call(client.api.placements({ id }).views.get()), [id]);
  return html`<section>
    <${Async} state=${placement}>${(p: Placement) => html`<header class="page-head"><h1 class="ellipsis">${p.name}</h1></header>
      <p class="hint">${venueOf(p)}${p.publish_at ? ` · ${fmtDate(p.publish_at)}` : ""} · ${p.cost ? money(p.cost.amount, p.cost.currency) : t("app-ads-no-price")}</p>
      ${p.post_url && html`<p><a href=${p.post_url} target="_blank" rel="noopener">${p.post_url}</a></p>`}
      <h2>${t("app-ads-funnel")}</h2>
      <${Funnel} p=${p} />
      <${Conversions} figures=${p.stats.conversions} unique=${p.stats.unique_clicks} roas=${p.stats.roas} postbacks=${`/postbacks?placement_id=${p.id}`} />`}<//>
    <h2>${t("app-ads-views-curve")}</h2>
    <${Async} state=${views}>${(series: { at: string; views: number }[]) =>
      series.length === 0
        ? html`<${Empty}>${t("app-ads-views-none")}<//>`
        : html`<${ChartView} label=${t("app-ads-views-curve")} height=${220}
            config=${timeLineConfig(
              series.map((r) => Date.parse(r.at)),
              [{ label: t("app-ads-step-views"), data: series.map((r) => r.views) }],
              (ms) => fmtDate(new Date(ms).toISOString()),
            )} />`}<//>
  </section>`;
}
