/** Keyword tracking: trackers with unread badges and limits; one tracker's matches feed. */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { linkTo, navigate } from "../router";
import { Async, Empty, confirmed, fmtDate, html, useAction, useAsync, type Loaded } from "../ui";
import type { Tracker } from "../../../api/tracking/model";
import { fmtNumber, t } from "../i18n";

export function TrackersPage() {
  const data = useAsync(async () => {
    const [trackers, limits] = await Promise.all([
      call(client.api.tracking.get()),
      call(client.api.tracking.limits.get()).catch(() => null),
    ]);
    const unread = await Promise.all(
      trackers.map((tr) =>
        call(client.api.tracking({ id: tr.id }).matches.unread.get()).then(
          (r) => r.count,
          () => 0,
        ),
      ),
    );
    return { trackers, limits, unread };
  }, []);
  return html`<section>
    <header class="page-head"><h1>${t("app-tracking-title")}</h1>
      <a class="btn small primary" href="/app/tracking/new" onClick=${linkTo("/tracking/new")}>${t("app-tracker-new")}</a></header>
    <${Async} state=${data}>${({ trackers, limits, unread }: Loaded<typeof data>) => html`
      ${limits && html`<p class="hint" data-testid="tracker-limits">${t("app-tracker-limits", { current: limits.current, max: limits.max, plan: limits.plan })}</p>`}
      ${
        trackers.length === 0
          ? html`<${Empty}>${t("app-trackers-none")}<//>`
          : html`<ul class="list">${trackers.map(
              (
                tr: Tracker,
                i: number,
              ) => html`<li key=${tr.id}><a class="row" href=${`/app/tracking/${tr.id}`} onClick=${linkTo(`/tracking/${tr.id}`)}>
            <div class="row-main"><div class="row-title">${tr.name} ${!tr.is_enabled && html`<span class="badge muted">${t("app-off")}</span>`}</div>
              <div class="row-sub">${t("app-tracker-row", { keyword: tr.keyword, via: tr.notify_via })}</div></div>
            <div class="row-stats"><strong>${fmtNumber(tr.total_matches)}</strong><span>${t("app-matches", { count: tr.total_matches })}</span>
              ${(unread[i] ?? 0) > 0 && html`<span class="badge unread" aria-label=${t("app-unread", { count: unread[i] ?? 0 })}>${unread[i]}</span>`}</div></a></li>`,
            )}</ul>`
      }`}<//>
  </section>`;
}

const PAGE = 20;

export function MatchesPage({ id }: { id: string }) {
  const tracker = useAsync(() => call(client.api.tracking({ id }).get()), [id]);
  const [offset, setOffset] = useState(0);
  const matches = useAsync(() => call(client.api.tracking({ id }).matches.get({ query: { limit: PAGE, offset } })), [id, offset]);
  const { busy, run } = useAction();
  const readAll = () =>
    run(async () => (await call(client.api.tracking({ id }).matches["read-all"].post({})), matches.reload()), t("app-matches-read"));
  const toggle = () =>
    run(async () => tracker.setData(await call(client.api.tracking({ id }).patch({ is_enabled: !tracker.data!.is_enabled }))));
  const test = () => run(() => call(client.api.tracking({ id }).test.post({})), t("app-tracker-test-sent"));
  const remove = () =>
    confirmed(t("app-tracker-delete-confirm")) &&
    run(async () => (await call(client.api.tracking({ id }).delete()), navigate("/tracking", true)), t("app-tracker-deleted"));

  return html`<section>
    <${Async} state=${tracker}>${(tr: Tracker) => html`
      <header class="page-head"><h1 class="ellipsis">${tr.name}</h1>
        <a class="btn small" href=${`/app/tracking/${id}/edit`} onClick=${linkTo(`/tracking/${id}/edit`)}>${t("app-edit")}</a></header>
      <p class="hint">“${tr.keyword}”${tr.exact_match ? ` ${t("app-tracker-whole-words")}` : ""}${tr.minus_words?.length ? ` · ${t("app-tracker-minus", { words: tr.minus_words.join(", ") })}` : ""}</p>
      <div class="button-row">
        <button class="btn small" disabled=${busy} onClick=${toggle}>${tr.is_enabled ? t("app-disable") : t("app-enable")}</button>
        <button class="btn small" disabled=${busy} onClick=${test}>${t("app-tracker-test")}</button>
        <button class="btn small" disabled=${busy} onClick=${readAll}>${t("app-matches-read-all")}</button>
        <button class="btn small danger" disabled=${busy} onClick=${remove}>${t("app-delete")}</button>
      </div>`}<//>
    <${Async} state=${matches}>${(m: Loaded<typeof matches>) =>
      m.items.length === 0
        ? html`<${Empty}>${t("app-matches-none")}<//>`
        : html`
      <ul class="list feed">${m.items.map(
        (x) => html`<li key=${x.id} class=${x.is_read ? "match" : "match unread"}>
        <div class="row-line"><strong>${x.source_title ?? x.source_username ?? t("app-match-unknown-source")}</strong>
          ${!x.is_read && html`<span class="badge unread">${t("app-match-new")}</span>`}${x.is_deleted && html`<span class="badge muted">${t("app-match-deleted")}</span>`}${x.no_longer_matches && html`<span class="badge muted">${t("app-match-edited")}</span>`}</div>
        <p class="snippet">${x.text_snippet ?? ""}</p>
        <div class="row-sub">${fmtDate(x.detected_at)}${x.matched_keyword ? ` · “${x.matched_keyword}”` : ""}
          ${x.post_url && html` · <a href=${x.post_url} target="_blank" rel="noopener">${t("app-match-open")}</a>`}</div></li>`,
      )}</ul>
      <div class="pager"><button class="btn small" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - PAGE))}>${t("app-newer")}</button>
        <span>${t("app-range-of", { from: offset + 1, to: Math.min(offset + PAGE, m.total), total: m.total })}</span>
        <button class="btn small" disabled=${offset + PAGE >= m.total} onClick=${() => setOffset(offset + PAGE)}>${t("app-older")}</button></div>`}<//>
  </section>`;
}
