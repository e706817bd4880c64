/** Channels: the account's channels; one channel's figures, its invites with retention and cost, and a joins/leaves chart. */
import { useState } from "preact/hooks";
import { get, post } from "../api";
import { linkTo } from "../router";
import { Async, Empty, fmtDate, html, useAction, useAsync } from "../ui";
import { ChartView, groupedBarConfig } from "../charts";
import type { Channel, ChannelStats, Invite, InviteStats, JoinSeries } from "../../../api/channels/model";

const pct = (r: number | null) => (r === null ? "—" : `${Math.round(r * 100)} %`);
const money = (n: number | null, c?: string) => (n === null || !c ? "—" : `${n.toFixed(2)} ${c}`);

export function ChannelsPage() {
  const data = useAsync(() => get<Channel[]>("/api/channels"), []);
  return html`<section>
    <header class="page-head"><h1>Channels</h1></header>
    <${Async} state=${data}>${(channels: any[]) => channels.length === 0
      ? html`<${Empty}>No channels yet. Make the bot an administrator of your channel (with the right to invite users): it shows up here.<//>`
      : html`<ul class="list">${channels.map((c) => html`<li key=${c.id}><a class="row" href=${`/app/channels/${c.id}`} onClick=${linkTo(`/channels/${c.id}`)}>
          <div class="row-main"><div class="row-title">${c.title ?? c.chat_id} ${!c.bot_is_admin && html`<span class="badge muted">bot not admin</span>`}</div>
            <div class="row-sub">${c.username ? `@${c.username} · ` : ""}${c.type}</div></div>
          <div class="row-stats"><strong>${c.members ?? "—"}</strong><span>members</span></div></a></li>`)}</ul>`}<//>
  </section>`;
}

export function ChannelPage({ id }: { id: string }) {
  const channel = useAsync(() => get<Channel>(`/api/channels/${id}`), [id]);
  const stats = useAsync(() => get<ChannelStats>(`/api/channels/${id}/stats`), [id]);
  const invites = useAsync(async () => {
    const list = await get<Invite[]>(`/api/channels/${id}/invites`);
    return Promise.all(list.map(async (i) => ({ ...i, figures: await get<InviteStats>(`/api/invites/${i.id}/stats`) })));
  }, [id]);
  const [invite, setInvite] = useState("");
  const series = useAsync(() => get<JoinSeries>(`/api/channels/${id}/series?days=30${invite ? `&invite_id=${invite}` : ""}`), [id, invite]);
  const { busy, run } = useAction();
  const send = (path: string, body: unknown, done: string) => run(() => post(`/api/channels/${id}/${path}`, body), done);
  return html`<section>
    <${Async} state=${channel}>${(c: any) => html`<header class="page-head"><h1 class="ellipsis">${c.title ?? c.chat_id}</h1></header>
      ${c.username && html`<p class="hint">Telegram does not say how someone joined a public channel by its @name: such joins count as unattributed. Invite links with join requests count every join.</p>`}`}<//>
    <${Async} state=${stats}>${(s: any) => html`<div class="stat-cards" data-testid="channel-figures">
      <div class="stat"><strong>${s.members ?? "—"}</strong><span>members</span></div>
      <div class="stat"><strong>+${s.joins}</strong><span>joined</span></div>
      <div class="stat"><strong>−${s.leaves}</strong><span>left</span></div>
      <div class="stat"><strong>${s.unattributed.joins}</strong><span>unattributed</span></div></div>`}<//>
    <div class="button-row">
      <button class="btn small" disabled=${busy} onClick=${() => send("export", { format: "csv" }, "Sent to your Telegram chat")}>Journal CSV</button>
      <button class="btn small" disabled=${busy} onClick=${() => send("export", { format: "xlsx" }, "Sent to your Telegram chat")}>Journal XLSX</button>
      <button class="btn small" disabled=${busy} onClick=${() => send("chart", { days: 30 }, "Sent to your Telegram chat")}>Chart to chat</button>
    </div>
    <h2>Invites</h2>
    <${Async} state=${invites}>${(list: any[]) => list.length === 0 ? html`<${Empty}>No invite links yet: make one in the bot (/channels → New invite).<//>` : html`
      <div class="table-wrap"><table class="clicks" data-testid="invites"><thead><tr><th>Invite</th><th>Clicks</th><th>Joined</th><th>Left</th><th>Stayed 7 d</th><th>Per join</th><th>Per stayer</th></tr></thead>
        <tbody>${list.map((i) => html`<tr key=${i.id}>
          <td>${i.name}${i.is_revoked ? html` <span class="badge muted">revoked</span>` : ""}<div class="row-sub">${fmtDate(i.created_at)}</div></td>
          <td>${i.figures.unique_clicks}</td><td>${i.figures.joins}</td><td>${i.figures.leaves}</td>
          <td>${pct(i.figures.retention.d7.rate)}</td><td>${money(i.figures.cost_per_join, i.cost?.currency)}</td><td>${money(i.figures.cost_per_retained, i.cost?.currency)}</td></tr>`)}</tbody></table></div>
      <label class="field">Chart of <select value=${invite} onChange=${(e: any) => setInvite(e.currentTarget.value)}>
        <option value="">all invites</option>${list.map((i) => html`<option value=${String(i.id)}>${i.name}</option>`)}</select></label>`}<//>
    <${Async} state=${series}>${(s: any) => html`<${ChartView} label="Joins and leaves per day" height=${240}
      config=${groupedBarConfig(s.labels, [{ label: "Joins", data: s.labels.map((_: string, d: number) => s.joins.reduce((a: number, j: any) => a + j.data[d], 0)) }, { label: "Leaves", data: s.leaves }])} />`}<//>
  </section>`;
}
