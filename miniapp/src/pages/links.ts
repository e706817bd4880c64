/** Links: searchable list with tag filter and click stats. */
import { useState } from "preact/hooks";
import { get } from "../api";
import { linkTo } from "../router";
import { Async, Empty, html, useAsync } from "../ui";
import { appConfig } from "../widget";

export interface LinkItem {
  id: number;
  code: string;
  original_url: string;
  title: string | null;
  trackingUrl?: string;
  is_active?: boolean;
  stats?: { totalClicks: number; uniqueClicks: number; botClicks: number };
}

export interface Tag {
  id: number;
  name: string;
}

export function LinksPage() {
  const [q, setQ] = useState("");
  const [tagIds, setTagIds] = useState<number[]>([]);
  const tags = useAsync(() => get<Tag[]>("/api/tags").catch(() => [] as Tag[]), []);
  const list = useAsync(
    () => get<LinkItem[]>(tagIds.length ? `/api/links?tags=${tagIds.join(",")}` : "/api/links"),
    [tagIds.join(",")],
  );
  const cfg = useAsync(() => appConfig(), []);
  const toggle = (id: number) => setTagIds((t) => (t.includes(id) ? t.filter((x) => x !== id) : [...t, id]));
  const needle = q.trim().toLowerCase();

  return html`<section>
    <header class="page-head">
      <h1>Links</h1>
      <div class="actions">
        <a class="btn small" href="/app/links/bulk" onClick=${linkTo("/links/bulk")}>Bulk</a>
        <a class="btn small primary" href="/app/links/new" onClick=${linkTo("/links/new")}>New link</a>
      </div>
    </header>
    <input type="search" class="search" placeholder="Search by title, URL or code" aria-label="Search links"
      value=${q} onInput=${(e: any) => setQ(e.currentTarget.value)} />
    ${tags.data && tags.data.length > 0 &&
    html`<div class="chips" role="group" aria-label="Filter by tag">
      ${tags.data.map(
        (t) => html`<button class=${tagIds.includes(t.id) ? "chip on" : "chip"} aria-pressed=${tagIds.includes(t.id)}
          onClick=${() => toggle(t.id)}>#${t.name}</button>`,
      )}
    </div>`}
    <${Async} state=${list}>
      ${(items: LinkItem[]) => {
        const shown = needle
          ? items.filter((l) => [l.title, l.original_url, l.code].some((s) => s?.toLowerCase().includes(needle)))
          : items;
        if (!items.length)
          return html`<${Empty}>${tagIds.length ? "No links with these tags." : html`No links yet. <a href="/app/links/new" onClick=${linkTo("/links/new")}>Create your first link</a>.`}<//>`;
        if (!shown.length) return html`<${Empty}>Nothing matches “${q}”.<//>`;
        return html`<ul class="list links-list">
          ${shown.map((l) => html`<li key=${l.id}><${LinkRow} link=${l} short=${cfg.data?.shortUrl} /></li>`)}
        </ul>`;
      }}
    <//>
  </section>`;
}

function LinkRow({ link, short }: { link: LinkItem; short?: string }) {
  const url = link.trackingUrl ?? (short ? `${short}/${link.code}` : link.code);
  const s = link.stats;
  return html`<a class="row" href=${`/app/links/${link.id}`} onClick=${linkTo(`/links/${link.id}`)}>
    <div class="row-main">
      <div class="row-title">${link.title || link.original_url}${link.is_active === false ? html` <span class="badge muted">paused</span>` : null}</div>
      <div class="row-sub">${url.replace(/^https?:\/\//, "")}</div>
      <div class="row-sub ellipsis">${link.original_url}</div>
    </div>
    ${s &&
    html`<div class="row-stats" title="total / unique / bots">
      <strong>${s.totalClicks}</strong><span>clicks</span>
      <small>${s.uniqueClicks} unique · ${s.botClicks} bots</small>
    </div>`}
  </a>`;
}
