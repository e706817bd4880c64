import { InlineKeyboard } from "grammy";
import type { Deps } from "../../core/deps";
import { pageOfLinks } from "../../core/links/list";
import { listTags } from "../../core/catalog/tags";
import { clip, escapeHtml } from "./link-card";

export const LIST_PAGE_SIZE = 8;

/** One page of the user's links (newest first), optionally only those with tag `tagId` (0: all). */
export function linkListPage(deps: Deps, userId: number, page: number, tagId: number) {
  const tags = listTags(deps, userId);
  const tag = tags.find((t) => t.id === tagId);
  const filter = tag ? tag.id : undefined;
  const query = { tagIds: filter ? [filter] : undefined, limit: LIST_PAGE_SIZE };
  let { items, total } = pageOfLinks(deps, userId, { ...query, offset: Math.max(0, page) * LIST_PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(total / LIST_PAGE_SIZE));
  const p = Math.min(Math.max(0, page), pages - 1);
  // a page past the end (links deleted since the button was drawn) shows the last one
  if (p !== Math.max(0, page)) items = pageOfLinks(deps, userId, { ...query, offset: p * LIST_PAGE_SIZE }).items;
  const kb = new InlineKeyboard();
  for (const l of items) {
    const name = clip(l.title ?? l.original_url.replace(/^https?:\/\//, ""), 40);
    kb.text(`${l.is_active ? "" : "⚪️ "}${name} · ${l.stats.totalClicks}`, `ln:card:${l.id}`).row();
  }
  if (pages > 1) {
    if (p > 0) kb.text("◀️", `ln:list:${p - 1}:${tagId}`);
    kb.text(`${p + 1}/${pages}`, `ln:list:${p}:${tagId}`);
    if (p < pages - 1) kb.text("▶️", `ln:list:${p + 1}:${tagId}`);
    kb.row();
  }
  if (tags.length) {
    kb.text(tag ? "All" : "• All", "ln:list:0:0");
    tags.slice(0, 11).forEach((t, i) => {
      if (i % 3 === 2) kb.row();
      kb.text(clip(`${t.id === tagId ? "• " : ""}🏷 ${t.name}`, 30), `ln:list:0:${t.id}`);
    });
    kb.row();
  }
  kb.text("➕ New link", "ln:new");
  const heading = tag ? `🔗 <b>Your links</b> tagged “${escapeHtml(tag.name)}”` : "🔗 <b>Your links</b>";
  const text = total
    ? `${heading} (${total})\nOpen one to see its card.`
    : tag ? `${heading}\nNo links carry this tag.` : `${heading}\nNo links yet. Paste a URL here to create one, or press “New link” for options.`;
  return { text, keyboard: kb };
}
