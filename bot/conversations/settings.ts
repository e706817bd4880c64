/**
 * Settings dialogs: a new API token (name, then scopes from buttons; the secret is shown once, in a
 * message no button ever overwrites), a new tag, a new pixel, and linking an email by a mailed code.
 */
import type { Context } from "grammy";
import type { Conversation } from "@grammyjs/conversations";
import type { BotContext } from "../context";
import { createApiToken } from "../../core/tokens/api-tokens";
import { SCOPES } from "../../core/tokens/scopes";
import { createTag } from "../../core/catalog/tags";
import { createPixel, PIXEL_TYPES } from "../../core/catalog/pixels";
import { sendLinkCode, verifyLinkCode } from "../../core/auth/email";
import { AppError } from "../../core/errors";
import { open, screen } from "../menus/nav";
import { problemText } from "./links";
import { dialogKeyboard, pressed } from "./choice";

type Convo = Conversation<BotContext, Context>;
const esc = (s: string) => Bun.escapeHTML(s);

/** A text answer; anything else (a tap, a command) leaves the dialog. (/cancel is answered before any dialog.) */
async function text(conversation: Convo): Promise<{ c: Context; text: string }> {
  const c = await conversation.wait();
  const t = c.message?.text?.trim();
  if (t === undefined || t.startsWith("/")) return conversation.halt({ next: true });
  return { c, text: t };
}

/** Runs a core call from the dialog; a domain error comes back as its text. */
function attempt<T>(conversation: Convo, run: (o: BotContext) => T | Promise<T>) {
  return conversation.external(async (o) => {
    try {
      return { ok: true as const, value: await run(o) };
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      return { ok: false as const, error: problemText(e) };
    }
  });
}

/** The scopes a token can be limited to, in button order; the button after them creates the token. */
const PICKABLE = SCOPES.filter((s) => s !== "*");

function scopeKeyboard(chosen: Set<string>) {
  const rows: string[][] = [];
  PICKABLE.forEach((s, i) => (i % 2 ? rows.at(-1)!.push(`${chosen.has(s) ? "✅" : "▫️"} ${s}`) : rows.push([`${chosen.has(s) ? "✅" : "▫️"} ${s}`])));
  return dialogKeyboard([...rows, [chosen.size ? `✔️ Create with ${chosen.size} scope(s)` : "✔️ Create with all scopes (*)"]]);
}

export async function createTokenConversation(conversation: Convo, ctx: Context) {
  await ctx.reply("Name the new API token (e.g. “ci” or “zapier”), or /cancel:");
  let name = "";
  while (!name) {
    const a = await text(conversation);
    if (a.text.length > 100) await a.c.reply("At most 100 characters, please.");
    else name = a.text;
  }
  const chosen = new Set<string>();
  const picker = await ctx.reply(`Token “${name}”: choose its scopes. Choose none for full access (*).`, { reply_markup: scopeKeyboard(chosen) });
  for (;;) {
    const n = await pressed(await conversation.wait(), picker);
    if (n === "stale") continue;
    if (n === undefined) return conversation.halt({ next: true });
    const scope = PICKABLE[n];
    if (!scope) break;
    chosen.has(scope) ? chosen.delete(scope) : chosen.add(scope);
    await ctx.api.editMessageReplyMarkup(picker.chat.id, picker.message_id, { reply_markup: scopeKeyboard(chosen) });
  }
  // the picker keeps no live buttons once the token exists
  await ctx.api.editMessageReplyMarkup(picker.chat.id, picker.message_id).catch(() => undefined);
  const created = await conversation.external((o) => createApiToken(o.deps, o.user!.id, { name, scopes: [...chosen] }));
  await ctx.reply(
    `✅ Token <b>${esc(created.name)}</b> created with scopes ${created.scopes.join(", ")}.\n\n<code>${created.token}</code>\n\nCopy it now: it is not shown again. Send it as <code>Authorization: Bearer &lt;token&gt;</code>.`,
    { parse_mode: "HTML" },
  );
  await conversation.external((o) => open(o, screen("tokens"), []));
}

export async function newTagConversation(conversation: Convo, ctx: Context) {
  await ctx.reply("Send the new tag's name (at most 50 characters), or /cancel.");
  for (;;) {
    const a = await text(conversation);
    const r = await attempt(conversation, (o) => createTag(o.deps, o.user!.id, a.text));
    if (r.ok) return await conversation.external((o) => open(o, screen("tags"), [], `✅ Tag “${esc(a.text)}” created.`));
    await a.c.reply(`${r.error}\nTry again, or /cancel.`);
  }
}

export async function newPixelConversation(conversation: Convo, ctx: Context) {
  await ctx.reply(`Send the pixel as “type id name”, e.g. “facebook 123456789012345 Main shop”. Types: ${PIXEL_TYPES.join(", ")}. /cancel stops.`);
  for (;;) {
    const a = await text(conversation);
    const [type = "", pixelId = "", ...name] = a.text.split(/\s+/);
    const r = await attempt(conversation, (o) => createPixel(o.deps, o.user!.id, { type: type.toLowerCase(), pixelId, name: name.join(" ") || `${type} ${pixelId}` }));
    if (r.ok) return await conversation.external((o) => open(o, screen("pixels"), [], `✅ Pixel “${esc(r.value.name)}” added.`));
    await a.c.reply(`${r.error}\nTry again, or /cancel.`);
  }
}

export async function linkEmailConversation(conversation: Convo, ctx: Context) {
  await ctx.reply("📧 Send the email address to link to this account. I mail it a code. /cancel stops.");
  let email = "";
  while (!email) {
    const a = await text(conversation);
    const r = await attempt(conversation, (o) => sendLinkCode(o.deps, o.user!.id, a.text));
    if (r.ok) email = a.text;
    else await a.c.reply(`${r.error}\nSend another address, or /cancel.`);
  }
  await ctx.reply(`I sent a code to ${email}. Send it here (it is valid for 10 minutes).`);
  for (;;) {
    const a = await text(conversation);
    const r = await attempt(conversation, (o) => verifyLinkCode(o.deps, o.user!.id, email, a.text));
    if (r.ok) {
      const note = r.value.merged ? " The account that email had was merged into this one." : "";
      return await conversation.external((o) => open(o, screen("settings"), [], `✅ ${esc(email)} is linked: you can sign in with it in the app.${note}`));
    }
    await a.c.reply(`${r.error}\nSend the code again, or /cancel.`);
  }
}
