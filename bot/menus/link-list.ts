/**
 * The list of the user's links (screen `links`, drawn for a page and a tag filter, 0: all): one button
 * per link opening its card, paging, tag filters, "New link" and back to the main menu.
 */
import { pageOfLinks } from "../../core/links/list";
import { listTags } from "../../core/catalog/tags";
import type { BotContext } from "../context";
import { act, backHome, createScreen, dynamic, go, idOf, itemOf, payload } from "./nav";
import { clip } from "./link-card";

export const LIST_PAGE_SIZE = 8;
/** The conversation that asks for a URL and creates the link (registered in bot/conversations). */
export const NEW_LINK = "new-link";

async function page(ctx: BotContext) {
  const userId = ctx.user!.id;
  const tags = await listTags(ctx.deps, userId);
  const tag = tags.find((t) => t.id === idOf(ctx, 1));
  const query = { tagIds: tag ? [tag.id] : undefined, limit: LIST_PAGE_SIZE };
  const first = await pageOfLinks(ctx.deps, userId, { ...query, offset: 0 });
  const pages = Math.max(1, Math.ceil(first.total / LIST_PAGE_SIZE));
  // a page past the end (links deleted since the button was drawn) shows the last one
  const p = Math.min(idOf(ctx, 0), pages - 1);
  const items = p === 0 ? first.items : (await pageOfLinks(ctx.deps, userId, { ...query, offset: p * LIST_PAGE_SIZE })).items;
  return { tags, tag, items, total: first.total, pages, p };
}

export const linkList = createScreen("links", 2, async (ctx) => {
  const { tag, total } = await page(ctx);
  const heading = tag ? `🔗 <b>Your links</b> tagged “${Bun.escapeHTML(tag.name)}”` : "🔗 <b>Your links</b>";
  if (total) return `${heading} (${total})\nOpen one to see its card and change its options.`;
  return tag ? `${heading}\nNo links carry this tag.` : `${heading}\nNo links yet. Paste a URL here to create one, or tap “New link”.`;
});

dynamic(linkList.menu, async (ctx, range) => {
  const { tags, tag, items, pages, p } = await page(ctx);
  for (const l of items) {
    const name = clip(l.title ?? l.original_url.replace(/^https?:\/\//, ""), 40);
    go(range, linkList, `${l.is_active ? "" : "⚪️ "}${name} · ${l.stats.totalClicks}`, "link", (c) => [itemOf(c, linkList)], l.id);
    range.row();
  }
  const tagId = tag?.id ?? 0;
  if (pages > 1) {
    if (p > 0) go(range, linkList, "◀️", "links", () => [p - 1, tagId]);
    go(range, linkList, `${p + 1}/${pages}`, "links", () => [p, tagId]);
    if (p < pages - 1) go(range, linkList, "▶️", "links", () => [p + 1, tagId]);
    range.row();
  }
  if (tags.length) {
    go(range, linkList, tag ? "All" : "• All", "links", () => [0, 0]);
    tags.slice(0, 11).forEach((t, i) => {
      if (i % 3 === 2) range.row();
      go(range, linkList, clip(`${t.id === tagId ? "• " : ""}🏷 ${t.name}`, 30), "links", () => [0, t.id]);
    });
    range.row();
  }
  range.text({ text: "➕ New link", payload: payload(linkList) }, (c) => act(c, () => c.conversation.enter(NEW_LINK)));
  go(range, linkList, "👻 Dead-code visits", "orphans", () => []);
});
backHome(linkList);
