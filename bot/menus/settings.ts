/**
 * Settings (screen `settings`): plan and usage against its limits, sign-in methods, and the lists
 * under it: API tokens, tags, pixels, passkeys and sign-in methods (each removable with
 * confirmation), linking an email by code.
 */
import { accountUsage } from "../../core/accounts/usage";
import { listIdentities, unlinkIdentity } from "../../core/accounts/identities";
import { listApiTokens, revokeApiToken } from "../../core/tokens/api-tokens";
import { deleteTag, listTags } from "../../core/catalog/tags";
import { deletePixel, listPixels } from "../../core/catalog/pixels";
import { deletePasskey, listPasskeys } from "../../core/auth/passkeys";
import { NotFound } from "../../core/errors";
import type { BotContext } from "../context";
import { act, backHome, createScreen, go, payload } from "./nav";
import { createItemList } from "./item-list";

const esc = (s: string) => Bun.escapeHTML(s);
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "never");
const bar = (used: number, limit: number) => `${used} of ${limit}${used >= limit ? " ⛔️ full" : ""}`;
export const LINK_EMAIL = "link-email";
export const NEW_TAG = "new-tag";
export const NEW_PIXEL = "new-pixel";
export const NEW_TOKEN = "create-api-token";

async function settingsText(ctx: BotContext): Promise<string> {
  const { subscription: sub, limits, usage } = await accountUsage(ctx.deps, ctx.user!.id);
  const ids = await listIdentities(ctx.deps, ctx.user!.id);
  const signIn = ids.map((i) => (i.provider === "passkey" ? `passkey “${esc(String(("name" in i && i.name) || ""))}”` : i.provider === "email" ? `email ${esc(i.subject)}` : "Telegram"));
  return [
    "<b>⚙️ Settings</b>",
    "",
    `Plan: <b>${sub.plan}</b>${sub.expiresAt ? ` until ${sub.expiresAt.slice(0, 10)}` : sub.plan === "free" ? "" : " (no expiry)"}`,
    `🔗 Links: ${bar(usage.links, limits.links)}`,
    `🔎 Trackers: ${bar(usage.trackers, limits.trackers)}`,
    `🔐 Secure files: ${bar(usage.secureFiles, limits.secureFiles)}`,
    `💾 Storage: ${usage.storageMB} of ${limits.storageMB} MB`,
    "",
    `Sign-in: ${signIn.join(", ")}`,
  ].join("\n");
}

export const settingsScreen = createScreen("settings", 0, settingsText);
const parent = { id: "settings", label: "⬅️ Settings" };

export const tokens = createItemList({
  id: "tokens",
  parent,
  text: async (ctx) => {
    const all = await listApiTokens(ctx.deps, ctx.user!.id);
    if (!all.length) return "<b>🔑 API tokens</b>\nNo API tokens yet. A token lets scripts use the API.";
    return [`<b>🔑 API tokens</b> (${all.length}), tap one to revoke it:`, ...all.slice(0, 40).map((t) => `• <b>${esc(t.name)}</b> <code>${t.hint}…</code> — ${t.scopes.join(", ")}; expires ${day(t.expiresAt)}, last used ${day(t.lastUsedAt)}`)].join("\n");
  },
  items: async (ctx) => (await listApiTokens(ctx.deps, ctx.user!.id)).map((t) => ({ id: t.id, label: `Revoke ${t.name}` })),
  confirm: async (ctx, id) => {
    const t = (await listApiTokens(ctx.deps, ctx.user!.id)).find((x) => x.id === id);
    if (!t) throw new NotFound("API token");
    return `Revoke the token “${esc(t.name)}”? Scripts using it stop working at once.`;
  },
  remove: (ctx, id) => revokeApiToken(ctx.deps, ctx.user!.id, id),
  removed: "🗑 Token revoked.",
  add: { label: "➕ New API token", conversation: NEW_TOKEN },
});

export const tags = createItemList({
  id: "tags",
  parent,
  text: async (ctx) => {
    const all = await listTags(ctx.deps, ctx.user!.id);
    return all.length ? `<b>🏷 Tags</b> (${all.length}): tap one to delete it (its links stay).` : "<b>🏷 Tags</b>\nNo tags yet. Add one here or from a link's card.";
  },
  items: async (ctx) => (await listTags(ctx.deps, ctx.user!.id)).map((t) => ({ id: t.id, label: t.name })),
  confirm: async (ctx, id) => {
    const t = (await listTags(ctx.deps, ctx.user!.id)).find((x) => x.id === id);
    if (!t) throw new NotFound("Tag");
    return `Delete the tag “${esc(t.name)}”? Links keep working; they just lose this tag.`;
  },
  remove: (ctx, id) => deleteTag(ctx.deps, ctx.user!.id, id),
  removed: "🗑 Tag deleted.",
  add: { label: "➕ New tag", conversation: NEW_TAG },
});

export const pixels = createItemList({
  id: "pixels",
  parent,
  text: async (ctx) => {
    const all = await listPixels(ctx.deps, ctx.user!.id);
    if (!all.length) return "<b>📡 Pixels</b>\nNo pixels yet. A pixel fires on the redirect page of the links you attach it to.";
    return [`<b>📡 Pixels</b> (${all.length}), tap one to delete it:`, ...all.map((p) => `• <b>${esc(p.name)}</b> ${p.type} <code>${esc(p.pixelId)}</code>`)].join("\n");
  },
  items: async (ctx) => (await listPixels(ctx.deps, ctx.user!.id)).map((p) => ({ id: p.id, label: p.name })),
  confirm: async (ctx, id) => {
    const p = (await listPixels(ctx.deps, ctx.user!.id)).find((x) => x.id === id);
    if (!p) throw new NotFound("Pixel");
    return `Delete the pixel “${esc(p.name)}”? It stops firing on every link.`;
  },
  remove: (ctx, id) => deletePixel(ctx.deps, ctx.user!.id, id),
  removed: "🗑 Pixel deleted.",
  add: { label: "➕ New pixel", conversation: NEW_PIXEL },
});

export const passkeys = createItemList({
  id: "passkeys",
  parent,
  text: async (ctx) => {
    const all = await listPasskeys(ctx.deps, ctx.user!.id);
    const add = `Add passkeys in the app (${esc(ctx.deps.config.baseUrl)}/): they need a browser.`;
    return all.length ? `<b>🔐 Passkeys</b> (${all.length}): tap one to remove it.\n${add}` : `<b>🔐 Passkeys</b>\nNo passkeys. ${add}`;
  },
  items: async (ctx) => (await listPasskeys(ctx.deps, ctx.user!.id)).map((p) => ({ id: p.id, label: p.name ?? "Passkey" })),
  confirm: async (ctx, id) => {
    const p = (await listPasskeys(ctx.deps, ctx.user!.id)).find((x) => x.id === id);
    if (!p) throw new NotFound("Passkey");
    return `Remove the passkey “${esc(p.name ?? "Passkey")}”? It can no longer sign in to this account.`;
  },
  remove: (ctx, id) => deletePasskey(ctx.deps, ctx.user!.id, id),
  removed: "🗑 Passkey removed.",
});

/** Telegram and email sign-ins; the Telegram account of this chat is not offered for removal (the bot knows the user by it). */
const unlinkable = async (ctx: BotContext) =>
  (await listIdentities(ctx.deps, ctx.user!.id)).filter((i): i is typeof i & { id: number } => "id" in i && !(i.provider === "telegram" && i.subject === String(ctx.from?.id)));
const signInName = (i: { provider: string; subject: string }) => (i.provider === "email" ? `email ${i.subject}` : `Telegram account ${i.subject}`);

export const signIns = createItemList({
  id: "sign-ins",
  parent,
  text: async (ctx) => {
    const others = await unlinkable(ctx);
    const head = "<b>🪪 Sign-in methods</b>\nThis Telegram account signs you in here and stays.";
    return others.length ? `${head} Tap another to unlink it:` : `${head} Nothing else to unlink (passkeys have their own list).`;
  },
  items: async (ctx) => (await unlinkable(ctx)).map((i) => ({ id: i.id, label: signInName(i) })),
  confirm: async (ctx, id) => {
    const i = (await unlinkable(ctx)).find((x) => x.id === id);
    if (!i) throw new NotFound("Sign-in method");
    return `Unlink ${esc(signInName(i))}? It can no longer sign in to this account (its links and files stay).`;
  },
  remove: (ctx, id) => unlinkIdentity(ctx.deps, ctx.user!.id, id),
  removed: "🗑 Sign-in unlinked.",
  add: { label: "📧 Link an email", conversation: LINK_EMAIL },
});

go(settingsScreen.menu, settingsScreen, "🔑 API tokens", "tokens", () => []);
go(settingsScreen.menu, settingsScreen, "🔐 Passkeys", "passkeys", () => []);
settingsScreen.menu.row();
go(settingsScreen.menu, settingsScreen, "🏷 Tags", "tags", () => []);
go(settingsScreen.menu, settingsScreen, "📡 Pixels", "pixels", () => []);
settingsScreen.menu.row();
settingsScreen.menu.text({ text: "📧 Link an email", payload: payload(settingsScreen) }, (ctx) => act(ctx, () => ctx.conversation.enter(LINK_EMAIL)));
go(settingsScreen.menu, settingsScreen, "🪪 Sign-in methods", "sign-ins", () => []);
settingsScreen.menu.row();
backHome(settingsScreen);
