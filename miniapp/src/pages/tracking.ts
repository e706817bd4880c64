/** Keyword tracking: trackers with unread badges and limits; one tracker's matches feed. */
import { useState } from "preact/hooks";
import { del, get, patch, post } from "../api";
import { linkTo, navigate } from "../router";
import { Async, Empty, confirmed, fmtDate, html, useAction, useAsync } from "../ui";
import type { Matches, Tracker, TrackerLimits } from "../../../api/tracking/model";


export function TrackersPage() {
  const data = useAsync(async () => {
    const [trackers, limits] = await Promise.all([
      get<Tracker[]>("/api/tracking"),
      get<TrackerLimits>("/api/tracking/limits").catch(() => null),
    ]);
    const unread = await Promise.all(trackers.map((t) => get<{ count: number }>(`/api/tracking/${t.id}/matches/unread`).then((r) => r.count, () => 0)));
    return { trackers, limits, unread };
  }, []);
  return html`<section>
    <header class="page-head"><h1>Keyword tracking</h1>
      <a class="btn small primary" href="/app/tracking/new" onClick=${linkTo("/tracking/new")}>New tracker</a></header>
    <${Async} state=${data}>${({ trackers, limits, unread }: any) => html`
      ${limits && html`<p class="hint" data-testid="tracker-limits">${limits.current} of ${limits.max} trackers on the ${limits.plan} plan</p>`}
      ${trackers.length === 0 ? html`<${Empty}>No trackers yet. Create one to get notified when a keyword shows up in channels and chats.<//>`
        : html`<ul class="list">${trackers.map((t: Tracker, i: number) => html`<li key=${t.id}><a class="row" href=${`/app/tracking/${t.id}`} onClick=${linkTo(`/tracking/${t.id}`)}>
            <div class="row-main"><div class="row-title">${t.name} ${!t.is_enabled && html`<span class="badge muted">off</span>`}</div>
              <div class="row-sub">“${t.keyword}” · via ${t.notify_via}</div></div>
            <div class="row-stats"><strong>${t.total_matches}</strong><span>matches</span>
              ${unread[i] > 0 && html`<span class="badge unread" aria-label=${`${unread[i]} unread`}>${unread[i]}</span>`}</div></a></li>`)}</ul>`}`}<//>
  </section>`;
}

const PAGE = 20;

export function MatchesPage({ id }: { id: string }) {
  const tracker = useAsync(() => get<Tracker>(`/api/tracking/${id}`), [id]);
  const [offset, setOffset] = useState(0);
  const matches = useAsync(() => get<Matches>(`/api/tracking/${id}/matches?limit=${PAGE}&offset=${offset}`), [id, offset]);
  const { busy, run } = useAction();
  const readAll = () => run(async () => (await post(`/api/tracking/${id}/matches/read-all`), matches.reload()), "All matches marked read");
  const toggle = () => run(async () => tracker.setData(await patch(`/api/tracking/${id}`, { is_enabled: !tracker.data!.is_enabled })));
  const test = () => run(() => post(`/api/tracking/${id}/test`), "Test notification sent");
  const remove = () => confirmed("Delete this tracker and its matches?") &&
    run(async () => (await del(`/api/tracking/${id}`), navigate("/tracking", true)), "Tracker deleted");

  return html`<section>
    <${Async} state=${tracker}>${(t: Tracker) => html`
      <header class="page-head"><h1 class="ellipsis">${t.name}</h1>
        <a class="btn small" href=${`/app/tracking/${id}/edit`} onClick=${linkTo(`/tracking/${id}/edit`)}>Edit</a></header>
      <p class="hint">“${t.keyword}”${t.exact_match ? " (whole words)" : ""}${t.minus_words?.length ? ` · minus: ${t.minus_words.join(", ")}` : ""}</p>
      <div class="button-row">
        <button class="btn small" disabled=${busy} onClick=${toggle}>${t.is_enabled ? "Disable" : "Enable"}</button>
        <button class="btn small" disabled=${busy} onClick=${test}>Send test</button>
        <button class="btn small" disabled=${busy} onClick=${readAll}>Mark all read</button>
        <button class="btn small danger" disabled=${busy} onClick=${remove}>Delete</button>
      </div>`}<//>
    <${Async} state=${matches}>${(m: any) => m.items.length === 0 ? html`<${Empty}>No matches yet.<//>` : html`
      <ul class="list feed">${m.items.map((x: any) => html`<li key=${x.id} class=${x.is_read ? "match" : "match unread"}>
        <div class="row-line"><strong>${x.source_title ?? x.source_username ?? "Unknown source"}</strong>
          ${!x.is_read && html`<span class="badge unread">new</span>`}${x.is_deleted && html`<span class="badge muted">deleted</span>`}${x.no_longer_matches && html`<span class="badge muted">edited: no longer matches</span>`}</div>
        <p class="snippet">${x.text_snippet ?? ""}</p>
        <div class="row-sub">${fmtDate(x.detected_at)}${x.matched_keyword ? ` · “${x.matched_keyword}”` : ""}
          ${x.post_url && html` · <a href=${x.post_url} target="_blank" rel="noopener">Open post</a>`}</div></li>`)}</ul>
      <div class="pager"><button class="btn small" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - PAGE))}>Newer</button>
        <span>${offset + 1}–${Math.min(offset + PAGE, m.total)} of ${m.total}</span>
        <button class="btn small" disabled=${offset + PAGE >= m.total} onClick=${() => setOffset(offset + PAGE)}>Older</button></div>`}<//>
  </section>`;
}
