import { InlineKeyboard } from "grammy";
import type { Deps } from "../../core/deps";
import { getLink } from "../../core/links/links";
import { listTags } from "../../core/catalog/tags";
import type { LinkDetails } from "../../core/links/views";

/** An inline button on the link card. */
export type CardButton = { text: string; callback_data: string };

/**
 * Rows other features append to the link card (analytics: `an:` Stats/Chart/Export/QR; webhooks:
 * `wh:` state/toggle/test). Each function gets the link (as GET /api/links/:id shows it) and
 * returns one row of buttons (an empty array adds nothing).
 */
export const LINK_CARD_EXTRAS: Array<(link: LinkDetails) => CardButton[]> = [];

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

/** The first `n` characters of `s`, counted in code points so that an emoji is never cut in half. */
export const clip = (s: string, n: number) => Array.from(s).slice(0, n).join("");
const short = (s: string, n = 60) => (Array.from(s).length > n ? `${clip(s, n - 1)}…` : s);
const day = (iso: string) => iso.replace("T", " ").slice(0, 16) + " UTC";

/** The card's text (HTML parse mode): title, tracking URL, destination, counters and options in force. */
export function linkCardText(link: LinkDetails, tagNames: string[] = []): string {
  const lines = [
    `🔗 <b>${escapeHtml(short(link.title ?? link.original_url, 80))}</b>`,
    escapeHtml(link.trackingUrl),
    `→ ${escapeHtml(short(link.original_url, 100))}`,
    "",
    `👆 Clicks: <b>${link.stats.totalClicks}</b> · unique ${link.stats.uniqueClicks} · bots ${link.stats.botClicks}`,
    link.is_active ? "🟢 Active" : "⚪️ Inactive",
  ];
  if (link.starts_at) lines.push(`⏳ Starts ${day(link.starts_at)}`);
  if (link.expires_at) lines.push(`⌛️ Expires ${day(link.expires_at)}`);
  if (link.max_clicks !== null) lines.push(`🎯 Click cap ${link.max_clicks}`);
  if (link.has_password) lines.push("🔒 Password protected");
  const targets = [link.ios_url && "iOS", link.android_url && "Android", link.desktop_url && "desktop"].filter(Boolean);
  if (targets.length) lines.push(`📱 Own targets for ${targets.join(", ")}`);
  if (tagNames.length) lines.push(`🏷 ${tagNames.map(escapeHtml).join(", ")}`);
  return lines.join("\n");
}

/** The card's buttons: toggle, edit options, delete, then every extra row, then back to the list. */
export function linkCardKeyboard(link: LinkDetails): InlineKeyboard {
  const kb = new InlineKeyboard()
    .text(link.is_active ? "⏸ Turn off" : "▶️ Turn on", `ln:tog:${link.id}`)
    .text("✏️ Edit options", `ln:edit:${link.id}`)
    .row()
    .text("🗑 Delete", `ln:del:${link.id}`)
    .row();
  for (const extra of LINK_CARD_EXTRAS) {
    const row = extra(link);
    if (row.length) kb.row(...row.map((b) => InlineKeyboard.text(b.text, b.callback_data)));
  }
  return kb.row().text("« My links", "ln:list:0:0");
}

/** The delete confirmation that replaces the card. */
export function deleteConfirm(link: LinkDetails) {
  return {
    text: `Delete <b>${escapeHtml(short(link.title ?? link.original_url, 80))}</b>?\nIts ${link.stats.totalClicks} recorded clicks are deleted too, and ${escapeHtml(link.trackingUrl)} stops working.`,
    keyboard: new InlineKeyboard().text("🗑 Yes, delete", `ln:delok:${link.id}`).text("Cancel", `ln:card:${link.id}`),
  };
}

/** The card of link `id` of `userId`, ready to send (404 NotFound when it is gone or not theirs). */
export function renderCard(deps: Deps, userId: number, id: number) {
  const link = getLink(deps, userId, id);
  const names = new Map(listTags(deps, userId).map((t) => [t.id, t.name]));
  return { link, text: linkCardText(link, link.tagIds.map((t) => names.get(t) ?? "?")), keyboard: linkCardKeyboard(link) };
}
