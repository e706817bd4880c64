/** Links: searchable list with tag filter and click stats, paged by the server. */
import { useEffect, useRef, useState } from "preact/hooks";
import { call, client, page } from "../api";
import { linkTo } from "../router";
import { Async, Empty, html, useAsync, inputValue } from "../ui";
import { appConfig } from "../widget";
import { OrphanVisits } from "./orphan-visits";
import { fmtNumber, t } from "../i18n";
import type { LinkListItem, Tag } from "../../../api/links/model";

type LinkItem = LinkListItem;

/** Links per request; "Show more" loads the next ones. */
const PAGE = 50;

export function LinksPage() {
  const [q, setQ] = useState("");
  const search = useDebounced(q.trim(), 250);
  const [tagIds, setTagIds] = useState<number[]>([]);
  const tags = useAsync(() => call(client.api.tags.get()).catch(() => [] as Tag[]), []);
  const key = `${tagIds.join(",")}\n${search}`;
  const pageAt = (offset: number) =>
    page(
      client.api.links.get({
        query: { limit: PAGE, offset, ...(tagIds.length ? { tags: tagIds.join(",") } : {}), ...(search ? { q: search } : {}) },
      }),
    );
  const list = useAsync(() => pageAt(0), [key]);
  const current = useRef(key);
  current.current = key;
  const [more, setMore] = useState<{ loading: boolean; error?: string }>({ loading: false });
  const loadMore = async (shown: LinkItem[]) => {
    const asked = key;
    setMore({ loading: true });
    try {
      const next = await pageAt(shown.length);
      // a page of an older search or filter is not added to the new one
      if (current.current === asked)
        list.setData({ items: [...shown, ...next.items.filter((l) => !shown.some((s) => s.id === l.id))], total: next.total });
      setMore({ loading: false });
    } catch (e) {
      setMore({ loading: false, error: (e as Error).message });
    }
  };
  const cfg = useAsync(() => appConfig(), []);
  const toggle = (id: number) => setTagIds((t) => (t.includes(id) ? t.filter((x) => x !== id) : [...t, id]));

  return html`<section>
    <header class="page-head">
      <h1>${t("app-links-title")}</h1>
      <div class="actions">
        <a class="btn small" href="/app/links/bulk" onClick=${linkTo("/links/bulk")}>${t("app-links-bulk")}</a>
        <a class="btn small primary" href="/app/links/new" onClick=${linkTo("/links/new")}>${t("app-links-new")}</a>
      </div>
    </header>
    <input type="search" class="search" placeholder=${t("app-links-search-placeholder")} aria-label=${t("app-links-search")}
      value=${q} onInput=${(e: Event) => setQ(inputValue(e))} />
    ${
      tags.data &&
      tags.data.length > 0 &&
      html`<div class="chips" role="group" aria-label=${t("app-links-filter-tags")}>
      ${tags.data.map(
        (t) => html`<button class=${tagIds.includes(t.id) ? "chip on" : "chip"} aria-pressed=${tagIds.includes(t.id)}
          onClick=${() => toggle(t.id)}>#${t.name}</button>`,
      )}
    </div>`
    }
    <${Async} state=${list}>
      ${({ items, total }: { items: LinkItem[]; total: number }) => {
        if (!items.length) {
          if (search) return html`<${Empty}>${t("app-links-no-match", { search })}<//>`;
          return html`<${Empty}>${tagIds.length ? t("app-links-none-tagged") : html`${t("app-links-none")} <a href="/app/links/new" onClick=${linkTo("/links/new")}>${t("app-links-create-first")}</a>`}<//>`;
        }
        return html`<ul class="list links-list">
            ${items.map((l) => html`<li key=${l.id}><${LinkRow} link=${l} short=${cfg.data?.shortUrl} /></li>`)}
          </ul>
          ${
            items.length < total &&
            html`<div class="more">
            <span class="muted" data-testid="links-shown">${t("app-shown-of", { shown: items.length, total })}</span>
            <button class="btn small" disabled=${more.loading} onClick=${() => loadMore(items)}>${more.loading ? t("app-loading") : t("app-show-more")}</button>
            ${more.error && html`<span class="error-text" role="alert">${more.error}</span>`}
          </div>`
          }`;
      }}
    <//>
    <${OrphanVisits} />
  </section>`;
}

/** `value`, once it has stopped changing for `ms` (a search box sends one request per pause, not per key). */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function LinkRow({ link, short }: { link: LinkItem; short?: string }) {
  const url = link.trackingUrl ?? (short ? `${short}/${link.code}` : link.code);
  const s = link.stats;
  return html`<a class="row" href=${`/app/links/${link.id}`} onClick=${linkTo(`/links/${link.id}`)}>
    <div class="row-main">
      <div class="row-title">${link.title || link.original_url}${link.is_active === false ? html` <span class="badge muted">${t("app-link-paused")}</span>` : null}</div>
      <div class="row-sub">${url.replace(/^https?:\/\//, "")}</div>
      <div class="row-sub ellipsis">${link.original_url}</div>
    </div>
    ${
      s &&
      html`<div class="row-stats" title=${t("app-links-stats-title")}>
      <strong>${fmtNumber(s.totalClicks)}</strong><span>${t("app-links-clicks", { count: s.totalClicks })}</span>
      <small>${t("app-links-unique-bots", { unique: s.uniqueClicks, bots: s.botClicks })}</small>
    </div>`
    }
  </a>`;
}
