/**
 * The link card (screen `link`, drawn for a link id): what the link does, one button per option of
 * the option table, analytics, the webhook screen, delete with confirmation and back to the list.
 */
import type { MenuRange } from "@grammyjs/menu";
import { write } from "../audited";
import type { Deps } from "../../core/deps";
import { deleteLink, editLink, getLink } from "../../core/links/links";
import type { LinkDetails } from "../../core/links/views";
import type { BotContext } from "../context";
import { may, mayChange } from "../workspace";
import type { I18nFlavor } from "@grammyjs/i18n";
import { l, num, readerOf, tell } from "../i18n";
import { LINK_OPTIONS } from "./link-options";
import { act, back, buttons, createScreen, go, idOf, modelOf, open, payload, screenAt, type MenuContext } from "./nav";
import { sendChart, sendQr } from "./link-photos";
import { periodIndex, say } from "./link-stats";
import { inviteOfLink } from "../../core/channels/invites";
import { placementsOf, type LinkPlacements } from "../../core/tracking/link-watch";
import { conversionStats } from "../../core/conversions/stats";
import { conversionLines } from "./conversion-lines";
import { postbackButton, postbackCount } from "./postbacks";

/** The conversation that asks one option's question (registered in bot/conversations). */
export const LINK_OPTION = "link-option";

/** The first `n` characters of `s`, counted in code points so that an emoji is never cut in half. */
export const clip = (s: string, n: number) => Array.from(s).slice(0, n).join("");
const short = (s: string, n = 60) => (Array.from(s).length > n ? `${clip(s, n - 1)}…` : s);
const esc = (s: string) => Bun.escapeHTML(s);

/** The card's text (HTML): title, tracking URL, target, counters, then one line per option in force. */
async function linkCardText(ctx: I18nFlavor & Parameters<typeof num>[0], deps: Deps, userId: number, link: LinkDetails): Promise<string> {
  const lines = [
    `🔗 <b>${esc(short(link.title ?? link.original_url, 80))}</b>`,
    // as code: a tap copies it, where a tapped link would open it and count a click
    `<code>${esc(link.trackingUrl)}</code>`,
    `→ ${esc(short(link.original_url, 100))}`,
    "",
    ctx.t("card-clicks", {
      total: num(ctx, link.stats.totalClicks),
      unique: num(ctx, link.stats.uniqueClicks),
      bots: num(ctx, link.stats.botClicks),
    }),
    ctx.t(link.is_active ? "card-active" : "card-inactive"),
    ...conversionLines(ctx, await conversionStats(deps, userId, { linkId: link.id }), link.stats.uniqueClicks),
  ];
  const invite = await inviteOfLink(deps, userId, link.id);
  const placed = await placementsOf(deps, userId, { linkId: link.id });
  if (placed.posts) lines.push(placementLine(ctx, placed));
  if (invite)
    lines.push(
      ctx.t("card-invite", {
        name: esc(invite.name),
        joins: num(ctx, invite.joins),
        leaves: num(ctx, invite.leaves),
        net: num(ctx, invite.joins - invite.leaves),
      }),
    );
  for (const o of LINK_OPTIONS) {
    const line = await o.line(link, { deps, userId, reader: readerOf(ctx) });
    if (line) lines.push(typeof line === "string" ? line : tell(ctx, line));
  }
  return lines.join("\n");
}

/** "📍 Posted in 4 channels: A, B, C…": the newest post of each chat, linked when it has a post link. */
export function placementLine(ctx: I18nFlavor, placed: LinkPlacements): string {
  const chats = new Map<string, LinkPlacements["items"][number]>();
  for (const p of placed.items) if (!chats.has(p.source_chat_id)) chats.set(p.source_chat_id, p);
  const names = [...chats.values()].slice(0, 5).map((p) => {
    const name = esc(short(p.source_title ?? (p.source_username ? `@${p.source_username}` : ctx.t("placement-private")), 40));
    return p.post_url ? `<a href="${esc(p.post_url)}">${name}</a>` : name;
  });
  return ctx.t("placement-line", {
    channels: placed.channels,
    posts: placed.posts > placed.channels ? placed.posts : 0,
    names: names.join(", "),
    more: Math.max(0, placed.channels - names.length),
  });
}

const linkOf = (ctx: BotContext, ids: number[]) => getLink(ctx.deps, ctx.owner.id, ids[0] ?? 0);

/** The card's model: the link and (for an editor, who gets the 📮 button) how many postbacks it has. */
async function cardOf(ctx: BotContext, ids: number[]) {
  const link = await linkOf(ctx, ids);
  return { ...link, postbacks: may(ctx) ? await postbackCount(ctx, 1, link.id) : 0 };
}

/** The card's model, read once per draw: its text, its Copy/Share, option and 📮 buttons. */
export const linkCard = createScreen("link", 1, {
  load: cardOf,
  body: (ctx, link) => linkCardText(ctx, ctx.deps, ctx.owner.id, link),
});
export const deleteLinkScreen = createScreen("link-delete", 1, {
  load: linkOf,
  body: (ctx, link) =>
    ctx.t("link-delete-confirm", {
      title: esc(short(link.title ?? link.original_url, 80)),
      clicks: link.stats.totalClicks,
      url: `<code>${esc(link.trackingUrl)}</code>`,
    }),
});

function optionButtons(ctx: BotContext, range: MenuRange<BotContext>, link: LinkDetails) {
  LINK_OPTIONS.forEach((o, i) => {
    const label = o.tap ? ctx.t(link.is_active ? "card-turn-off" : "card-turn-on") : ctx.t(o.label);
    range.text({ text: label, payload: payload(linkCard) }, (c) =>
      act(c, async () => {
        const id = idOf(c);
        if (o.tap) {
          mayChange(c);
          // the press drew the card for this link: its model is the link as the person saw it
          const change = o.tap(await modelOf(c, linkCard));
          await write(c, editLink, id, change);
          await open(c, linkCard, [id]);
        } else await c.conversation.enter(LINK_OPTION, id, i);
      }),
    );
    if (i % 2 === 1 || i === LINK_OPTIONS.length - 1) range.row();
  });
}

buttons(linkCard, (ctx, range, link) => {
  // Copy puts the short link on the clipboard; Share opens the chat picker with it (inline mode finds the link)
  range.copyText(l("card-copy"), link.trackingUrl).switchInline(l("card-share"), link.original_url).row();
  // a viewer reads the card: the buttons that change the link are for editors and up
  const writer = may(ctx);
  if (writer) optionButtons(ctx, range, link);
  const p = payload(linkCard);
  const run = (fn: (c: BotContext, userId: number, id: number) => Promise<void>) => (c: MenuContext) =>
    say(c, () => fn(c, c.owner.id, idOf(c)));
  go(range, linkCard, l("card-stats"), "link-stats", (c) => [idOf(c), periodIndex("30d")]);
  range.text(
    { text: l("card-chart"), payload: p },
    run((c, u, id) => sendChart(c, u, id)),
  );
  go(range, linkCard, l("card-export"), "link-export", (c) => [idOf(c)]);
  range.text({ text: l("card-qr"), payload: p }, run(sendQr)).row();
  if (link.webhook_url) go(range, linkCard, l("card-webhook"), "link-webhook", (c) => [idOf(c)]);
  if (writer) postbackButton(range, linkCard, 1, link.id, link.postbacks);
  range.row();
  if (writer) go(range, linkCard, l("card-delete"), deleteLinkScreen.id, (c) => [idOf(c)]);
});
back(linkCard, l("card-back"), "links", () => [0, 0]);

deleteLinkScreen.text({ text: l("link-delete-yes"), payload: payload(deleteLinkScreen) }, (ctx) =>
  act(ctx, async () => {
    mayChange(ctx);
    await write(ctx, deleteLink, idOf(ctx));
    await open(ctx, screenAt("links"), [0, 0], ctx.t("link-deleted"));
  }),
);
back(deleteLinkScreen, l("link-delete-cancel"), "link", (c) => [idOf(c)]);
