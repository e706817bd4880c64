/** Channels: the account's channels; one channel's figures, its invites with retention and cost, and a joins/leaves chart. */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { linkTo } from "../router";
import { Async, Empty, fmtDate, html, useAction, useAsync, inputValue, type Loaded } from "../ui";
import { ChartView, groupedBarConfig } from "../charts";
import { fmtNumber, t } from "../i18n";
import { valueText, type ConversionFigures } from "./conversions";

const pct = (r: number | null) => (r === null ? "—" : `${Math.round(r * 100)} %`);
const money = (n: number | null, c?: string) =>
  n === null || !c ? "—" : `${fmtNumber(n, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${c}`;

/** An invite's conversions in its table cell: the count and, under it, what they were worth; "—" for none. */
function conversionsCell(c: ConversionFigures) {
  if (!c.count) return "—";
  const value = valueText(c.value);
  return html`${c.count}${value && html`<div class="row-sub">${value}</div>`}`;
}

export function ChannelsPage() {
  const data = useAsync(() => call(client.api.channels.get()), []);
  return html`<section>
    <header class="page-head"><h1>${t("app-tab-channels")}</h1></header>
    <${Async} state=${data}>${(channels: Loaded<typeof data>) =>
      channels.length === 0
        ? html`<${Empty}>${t("app-channels-none")}<//>`
        : html`<ul class="list">${channels.map(
            (c) => html`<li key=${c.id}><a class="row" href=${`/app/channels/${c.id}`} onClick=${linkTo(`/channels/${c.id}`)}>
          <div class="row-main"><div class="row-title">${c.title ?? c.chat_id} ${!c.bot_is_admin && html`<span class="badge muted">${t("app-channel-not-admin")}</span>`}</div>
            <div class="row-sub">${c.username ? `@${c.username} · ` : ""}${c.type}</div></div>
          <div class="row-stats"><strong>${c.members == null ? "—" : fmtNumber(c.members)}</strong><span>${t("app-members", { count: c.members ?? 0 })}</span></div></a></li>`,
          )}</ul>`}<//>
  </section>`;
}

export function ChannelPage({ id }: { id: string }) {
  const channel = useAsync(() => call(client.api.channels({ id }).get()), [id]);
  const stats = useAsync(() => call(client.api.channels({ id }).stats.get()), [id]);
  const invites = useAsync(async () => {
    const list = await call(client.api.channels({ id }).invites.get());
    return Promise.all(list.map(async (i) => ({ ...i, figures: await call(client.api.invites({ id: i.id }).stats.get()) })));
  }, [id]);
  const [invite, setInvite] = useState("");
  const series = useAsync(
    () => call(client.api.channels({ id }).series.get({ query: invite ? { days: 30, invite_id: Number(invite) } : { days: 30 } })),
    [id, invite],
  );
  const { busy, run } = useAction();
  const thisChannel = client.api.channels({ id });
  const sent = (request: () => Promise<unknown>) => run(request, t("app-sent-to-chat"));
  return html`<section>
    <${Async} state=${channel}>${(
      c: Loaded<typeof channel>,
    ) => html`<header class="page-head"><h1 class="ellipsis">${c.title ?? c.chat_id}</h1></header>
      ${c.username && html`<p class="hint">${t("app-channel-public-hint")}</p>`}`}<//>
    <${Async} state=${stats}>${(s: Loaded<typeof stats>) => html`<div class="stat-cards" data-testid="channel-figures">
      <div class="stat"><strong>${s.members ?? "—"}</strong><span>${t("app-members", { count: s.members ?? 0 })}</span></div>
      <div class="stat"><strong>+${s.joins}</strong><span>${t("app-joined")}</span></div>
      <div class="stat"><strong>−${s.leaves}</strong><span>${t("app-left")}</span></div>
      <div class="stat"><strong>${s.unattributed.joins}</strong><span>${t("app-unattributed")}</span></div></div>`}<//>
    <div class="button-row">
      <button class="btn small" disabled=${busy} onClick=${() => sent(() => call(thisChannel.export.post({ format: "csv" })))}>${t("app-journal", { format: "CSV" })}</button>
      <button class="btn small" disabled=${busy} onClick=${() => sent(() => call(thisChannel.export.post({ format: "xlsx" })))}>${t("app-journal", { format: "XLSX" })}</button>
      <button class="btn small" disabled=${busy} onClick=${() => sent(() => call(thisChannel.chart.post({ days: 30 })))}>${t("app-chart-to-chat")}</button>
    </div>
    <h2>${t("app-invites")}</h2>
    <${Async} state=${invites}>${(list: Loaded<typeof invites>) =>
      list.length === 0
        ? html`<${Empty}>${t("app-invites-none")}<//>`
        : html`
      <div class="table-wrap"><table class="clicks" data-testid="invites"><thead><tr><th>${t("app-invite")}</th><th>${t("app-clicks-label")}</th><th>${t("app-joined-col")}</th><th>${t("app-left-col")}</th><th>${t("app-stayed")}</th><th>${t("app-conv-col")}</th><th>${t("app-per-join")}</th><th>${t("app-per-stayer")}</th></tr></thead>
        <tbody>${list.map(
          (i) => html`<tr key=${i.id}>
          <td>${i.name}${i.is_revoked ? html` <span class="badge muted">${t("app-share-state-revoked")}</span>` : ""}<div class="row-sub">${fmtDate(i.created_at)}</div></td>
          <td>${i.figures.unique_clicks}</td><td>${i.figures.joins}</td><td>${i.figures.leaves}</td>
          <td>${pct(i.figures.retention.d7.rate)}</td><td data-testid="invite-conversions">${conversionsCell(i.figures.conversions)}</td><td>${money(i.figures.cost_per_join, i.cost?.currency)}</td><td>${money(i.figures.cost_per_retained, i.cost?.currency)}</td></tr>`,
        )}</tbody></table></div>
      <label class="field">${t("app-chart-of")} <select value=${invite} onChange=${(e: Event) => setInvite(inputValue(e))}>
        <option value="">${t("app-all-invites")}</option>${list.map((i) => html`<option value=${String(i.id)}>${i.name}</option>`)}</select></label>`}<//>
    <${Async} state=${series}>${(s: Loaded<typeof series>) => html`<${ChartView} label=${t("app-joins-chart")} height=${240}
      config=${groupedBarConfig(s.labels, [
        { label: t("app-joins"), data: s.labels.map((_: string, d: number) => s.joins.reduce((a: number, j) => a + (j.data[d] ?? 0), 0)) },
        { label: t("app-leaves"), data: s.leaves },
      ])} />`}<//>
  </section>`;
}
