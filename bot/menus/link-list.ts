/**
 * The list of the user's links (screen `links`, drawn for a page and a tag filter, 0: all): one button
 * per link opening its card, paging, tag filters, "New link" and back to the main menu.
 */
import { pageOfLinks } from "../../core/links/list";
import { listTags } from "../../core/catalog/tags";
import type { BotContext } from "../context";
import { l, num } from "../i18n";
import { act, backHome, buttons, createScreen, go, itemOf, payload } from "./nav";
import { clip } from "./link-card";
import { may } from "../workspace";

const LIST_PAGE_SIZE = 8;
/** The conversation that asks for a URL and creates the link (registered in bot/conversations). */
export const NEW_LINK = "new-link";

/** The list's model: the page asked for (the last one when it is past the end), under the tag filter asked for. */
async function page(ctx: BotContext, [asked = 0, tagId = 0]: number[]) {
  const userId = ctx.owner.id;
  const tags = await listTags(ctx.deps, userId);
  const tag = tags.find((t) => t.id === tagId);
  const query = { tagIds: tag ? [tag.id] : undefined, limit: LIST_PAGE_SIZE };
  const first = await pageOfLinks(ctx.deps, userId, { ...query, offset: 0 });
  const pages = Math.max(1, Math.ceil(first.total / LIST_PAGE_SIZE));
  // a page past the end (links deleted since the button was drawn) shows the last one
  const p = Math.min(asked, pages - 1);
  const items = p === 0 ? first.items : (await pageOfLinks(ctx.deps, userId, { ...query, offset: p * LIST_PAGE_SIZE })).items;
  return { tags, tag, items, total: first.total, pages, p };
}

export const linkList = createScreen("links", 2, {
  load: page,
  body: (ctx, { tag, total }) => {
    const title = tag ? ctx.t("links-title-tagged", { tag: Bun.escapeHTML(tag.name) }) : ctx.t("links-title");
    if (total) return ctx.t("links-count", { title, count: total });
    return ctx.t(tag ? "links-none-tagged" : "links-none", { title });
  },
});

buttons(linkList, (ctx, range, { tags, tag, items, pages, p }) => {
  for (const link of items) {
    const name = clip(link.title ?? link.original_url.replace(/^https?:\/\//, ""), 40);
    go(
      range,
      linkList,
      `${link.is_active ? "" : "⚪️ "}${name} · ${num(ctx, link.stats.totalClicks)}`,
      "link",
      (c) => [itemOf(c, linkList)],
      link.id,
    );
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
    go(range, linkList, l(tag ? "links-all" : "links-all-current"), "links", () => [0, 0]);
    tags.slice(0, 11).forEach((t, i) => {
      if (i % 3 === 2) range.row();
      go(range, linkList, clip(`${t.id === tagId ? "• " : ""}🏷 ${t.name}`, 30), "links", () => [0, t.id]);
    });
    range.row();
  }
  // a viewer reads the list; making links is for editors and up
  if (may(ctx)) range.text({ text: l("links-new"), payload: payload(linkList) }, (c) => act(c, () => c.conversation.enter(NEW_LINK)));
  go(range, linkList, l("links-orphans"), "orphans", () => []);
});
backHome(linkList);
