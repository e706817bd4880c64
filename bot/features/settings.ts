import { Composer, InlineKeyboard, type Context } from "grammy";
import { createConversation, type Conversation } from "@grammyjs/conversations";
import type { BotContext } from "../context";
import { MENU, backToMenu } from "../menus/root";
import { createApiToken, listApiTokens, revokeApiToken } from "../../core/tokens/api-tokens";
import { SCOPES } from "../../core/tokens/scopes";
import { limitsOf, subscriptionOf } from "../../core/accounts/plans";
import { getUser } from "../../core/accounts/users";
import { NotFound } from "../../core/errors";

const CB = {
  newToken: "settings:token:new",
  revoke: /^settings:token:revoke:(\d+)$/,
  revokeYes: /^settings:token:revoke-yes:(\d+)$/,
  scope: /^token-scope:(.+)$/,
};
const MAX_LISTED = 15;
const escape = (s: string) => s.replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]!);
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "never");

/** The settings page: plan, expiry, limits and API tokens, with buttons to create and revoke tokens. */
function settingsPage(ctx: BotContext) {
  const { deps } = ctx;
  const user = getUser(deps, ctx.user!.id);
  const sub = subscriptionOf(user, deps.clock.now());
  const limits = limitsOf(deps, user);
  // a message holds 4096 characters: list the newest tokens, the API lists them all
  const all = listApiTokens(deps, user.id);
  const tokens = all.slice(0, MAX_LISTED);
  const lines = [
    "<b>⚙️ Settings</b>",
    "",
    `Plan: <b>${sub.plan}</b>${sub.expiresAt ? ` until ${sub.expiresAt.slice(0, 10)}` : sub.plan === "free" ? "" : " (no expiry)"}`,
    `Limits: ${limits.links} links, ${limits.trackers} trackers, ${limits.secureFiles} secure files, ${limits.storageMB} MB storage`,
    "",
    all.length ? `<b>API tokens</b> (${all.length}):` : "No API tokens yet. A token lets scripts use the API.",
    ...tokens.map((t) => `• <b>${escape(t.name)}</b> <code>${t.hint}…</code> — ${t.scopes.join(", ")}; expires ${day(t.expiresAt)}, last used ${day(t.lastUsedAt)}`),
    ...(all.length > MAX_LISTED ? [`…and ${all.length - MAX_LISTED} older ones (GET /api/tokens lists all).`] : []),
  ];
  const kb = new InlineKeyboard().text("➕ New API token", CB.newToken).row();
  for (const t of tokens) kb.text(`🗑 Revoke ${t.name}`, `settings:token:revoke:${t.id}`).row();
  return { text: lines.join("\n"), options: { parse_mode: "HTML" as const, reply_markup: backToMenu(kb) } };
}

function scopeKeyboard(chosen: Set<string>) {
  const kb = new InlineKeyboard();
  SCOPES.filter((s) => s !== "*").forEach((s, i) => {
    kb.text(`${chosen.has(s) ? "✅" : "▫️"} ${s}`, `token-scope:${s}`);
    if (i % 2 === 1) kb.row();
  });
  return kb.row().text(chosen.size ? `✔️ Create with ${chosen.size} scope(s)` : "✔️ Create with all scopes (*)", "token-scope:done");
}

/** Conversation: token name, then scopes from buttons (none chosen = `*`); the secret is shown once. */
async function createTokenConversation(conversation: Conversation<BotContext, Context>, ctx: Context) {
  await ctx.reply("Name the new API token (e.g. “ci” or “zapier”), or /cancel:");
  let name = "";
  while (!name) {
    const text = (await conversation.waitFor("message:text", { otherwise: (c) => c.reply("Please send the token's name as text, or /cancel.") })).message.text.trim();
    if (text.startsWith("/")) await ctx.reply("That looks like a command. Send a name for the token, or /cancel to stop.");
    else name = text.slice(0, 100);
  }
  const chosen = new Set<string>();
  const picker = await ctx.reply(`Token “${name}”: choose its scopes. Choose none for full access (*).`, { reply_markup: scopeKeyboard(chosen) });
  for (;;) {
    const press = await conversation.waitForCallbackQuery(CB.scope, { otherwise: (c) => c.reply("Tap the scope buttons above, or /cancel.") });
    const scope = press.match[1]!;
    if (scope === "done") {
      await press.answerCallbackQuery();
      break;
    }
    chosen.has(scope) ? chosen.delete(scope) : chosen.add(scope);
    await press.answerCallbackQuery();
    await ctx.api.editMessageReplyMarkup(picker.chat.id, picker.message_id, { reply_markup: scopeKeyboard(chosen) });
  }
  const created = await conversation.external((outer) => createApiToken(outer.deps, outer.user!.id, { name, scopes: [...chosen] }));
  await ctx.reply(
    `✅ Token <b>${escape(created.name)}</b> created with scopes ${created.scopes.join(", ")}.\n\n<code>${created.token}</code>\n\nCopy it now: it is not shown again. Send it as <code>Authorization: Bearer &lt;token&gt;</code>.`,
    { parse_mode: "HTML", reply_markup: new InlineKeyboard().text("⚙️ Back to settings", MENU.settings) },
  );
}

/** Settings: plan, limits and API tokens (create through a conversation, revoke with confirmation). */
export const settingsFeature = new Composer<BotContext>();
const pm = settingsFeature.chatType("private");
pm.use(createConversation(createTokenConversation, "create-api-token"));

pm.command("settings", async (ctx) => {
  const page = settingsPage(ctx);
  await ctx.reply(page.text, page.options);
});

pm.callbackQuery(MENU.settings, async (ctx) => {
  await ctx.answerCallbackQuery();
  const page = settingsPage(ctx);
  await ctx.editMessageText(page.text, page.options);
});

pm.callbackQuery(CB.newToken, async (ctx) => {
  await ctx.answerCallbackQuery();
  await ctx.conversation.enter("create-api-token");
});

pm.callbackQuery(CB.revoke, async (ctx) => {
  await ctx.answerCallbackQuery();
  const id = Number(ctx.match[1]);
  const token = listApiTokens(ctx.deps, ctx.user!.id).find((t) => t.id === id);
  if (!token) return ctx.editMessageText("That token is already gone.", { reply_markup: new InlineKeyboard().text("⚙️ Settings", MENU.settings) });
  await ctx.editMessageText(`Revoke the token “${token.name}”? Scripts using it stop working at once.`, {
    reply_markup: new InlineKeyboard().text("🗑 Yes, revoke", `settings:token:revoke-yes:${id}`).text("Keep it", MENU.settings),
  });
});

pm.callbackQuery(CB.revokeYes, async (ctx) => {
  try {
    revokeApiToken(ctx.deps, ctx.user!.id, Number(ctx.match[1]));
    await ctx.answerCallbackQuery({ text: "Token revoked" });
  } catch (e) {
    if (!(e instanceof NotFound)) throw e;
    await ctx.answerCallbackQuery({ text: "That token is already gone" });
  }
  const page = settingsPage(ctx);
  await ctx.editMessageText(page.text, page.options);
});
