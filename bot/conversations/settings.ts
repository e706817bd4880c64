/**
 * Settings dialogs: a new API token (name, then scopes: a preset or the Create button in one press,
 * scopes typed in one answer, or picked one by one; the secret is shown once, in a
 * message no button ever overwrites), a new tag, a new pixel, and linking an email by a mailed code.
 */
import type { Conversation } from "@grammyjs/conversations";
import { write } from "../audited";
import type { BotContext, DialogContext } from "../context";
import { createApiToken } from "../../core/tokens/api-tokens";
import { SCOPES } from "../../core/tokens/scopes";
import { createTag } from "../../core/catalog/tags";
import { createPixel, PIXEL_TYPES } from "../../core/catalog/pixels";
import { sendLinkCode, verifyLinkCode } from "../../core/auth/email";
import { AppError } from "../../core/errors";
import { open, screenAt } from "../menus/nav";
import { problemText } from "../problem";
import { dialogKeyboard, pressed } from "./choice";
import { readTimeZone, updateSettings } from "../../core/reports/settings";
import { reportsScreen } from "../menus/reports";
import { scopeName } from "../menus/settings";
import { zoneName } from "../../core/i18n/wall";
import { localeOf } from "../i18n";

type Convo = Conversation<BotContext, DialogContext>;
const esc = (s: string) => Bun.escapeHTML(s);

/** A text answer; anything else (a tap, a command) leaves the dialog. (/cancel is answered before any dialog.) */
async function text(conversation: Convo): Promise<{ c: DialogContext; text: string }> {
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
      return { ok: false as const, error: problemText(o, e) };
    }
  });
}

/** The scopes a token can be limited to, in button order, after the presets; the button after them creates the token. */
const PICKABLE = SCOPES.filter((s) => s !== "*");
/** One-press answers above the scopes: every read scope (full access is the Create button with none chosen). */
const PRESETS: string[][] = [PICKABLE.filter((s) => s.startsWith("read:"))];

function scopeKeyboard(ctx: DialogContext, chosen: Set<string>) {
  const rows: string[][] = [[ctx.t("token-preset-read")]];
  const label = (s: string) => `${chosen.has(s) ? "✅" : "▫️"} ${scopeName(ctx, s)}`;
  PICKABLE.forEach((s, i) => (i % 2 ? rows.at(-1)!.push(label(s)) : rows.push([label(s)])));
  return dialogKeyboard([...rows, [chosen.size ? ctx.t("token-create-with", { count: chosen.size }) : ctx.t("token-create-all")]]);
}

/**
 * Scopes typed as one answer: their names in the reader's language or as the API writes them
 * (`ссылки: чтение, статистика: чтение`, `read:links read:stats`), `*` or "all" for full access;
 * null when a part names no scope.
 */
export function readScopes(ctx: { t: (k: string) => string }, text: string): string[] | null {
  const norm = (x: string) => x.toLowerCase().replace(/\s+/g, " ").trim();
  const byName = new Map<string, string>(SCOPES.flatMap((s) => [[norm(scopeName(ctx, s)), s] as const, [s, s] as const]));
  for (const all of ["all", "все"]) byName.set(all, "*");
  // names hold a colon and a space ("links: read"), codes a colon alone: split on commas, semicolons and lines, then spaces between codes
  const parts = text
    .split(/[,;\n]+/)
    .flatMap((p) => (/^\s*[a-z]+:[a-z]+(\s+[a-z]+:[a-z]+)+\s*$/i.test(p) ? p.trim().split(/\s+/) : [p]))
    .map(norm)
    .filter(Boolean);
  const scopes = parts.map((p) => byName.get(p));
  if (!parts.length || scopes.some((s) => !s)) return null;
  return [...new Set(scopes as string[])];
}

export async function createTokenConversation(conversation: Convo, ctx: DialogContext) {
  await ctx.reply(ctx.t("token-ask-name"));
  let name = "";
  while (!name) {
    const a = await text(conversation);
    if (a.text.length > 100) await a.c.reply(ctx.t("token-name-too-long"));
    else name = a.text;
  }
  const chosen = new Set<string>();
  const picker = await ctx.reply(ctx.t("token-pick-scopes", { name: esc(name) }), { reply_markup: scopeKeyboard(ctx, chosen) });
  for (;;) {
    const c = await conversation.wait();
    const n = await pressed(c, picker);
    if (n === "stale") continue;
    const typed = c.message?.text?.trim();
    if (n === undefined && typed && !typed.startsWith("/")) {
      const scopes = readScopes(ctx, typed);
      if (!scopes) {
        await c.reply(ctx.t("token-scopes-rule", { names: PICKABLE.map((s) => scopeName(ctx, s)).join(", ") }));
        continue;
      }
      chosen.clear();
      for (const s of scopes) chosen.add(s);
      break;
    }
    if (n === undefined) return conversation.halt({ next: true });
    const preset = PRESETS[n];
    if (preset) {
      for (const s of preset) chosen.add(s);
      break;
    }
    const scope = PICKABLE[n - PRESETS.length];
    if (!scope) break;
    chosen.has(scope) ? chosen.delete(scope) : chosen.add(scope);
    await ctx.api.editMessageReplyMarkup(picker.chat.id, picker.message_id, { reply_markup: scopeKeyboard(ctx, chosen) });
  }
  // the picker keeps no live buttons once the token exists
  await ctx.api.editMessageReplyMarkup(picker.chat.id, picker.message_id).catch(() => undefined);
  const created = await conversation.external((o) =>
    write(o, createApiToken, { name, scopes: [...chosen] }, { id: o.user.id, role: o.role }),
  );
  await ctx.reply(
    ctx.t("token-created", {
      name: esc(created.name),
      scopes: created.scopes.map((s) => scopeName(ctx, s)).join(", "),
      token: created.token,
    }),
    {
      reply_markup: { inline_keyboard: [[{ text: ctx.t("token-copy"), copy_text: { text: created.token } }]] },
    },
  );
  await conversation.external((o) => open(o, screenAt("tokens"), []));
}

export async function newTagConversation(conversation: Convo, ctx: DialogContext) {
  await ctx.reply(ctx.t("tag-ask-name"));
  for (;;) {
    const a = await text(conversation);
    const r = await attempt(conversation, async (o) => {
      const tag = await write(o, createTag, a.text);
      return tag;
    });
    if (r.ok) return await conversation.external((o) => open(o, screenAt("tags"), [], o.t("tag-created", { name: esc(a.text) })));
    await a.c.reply(ctx.t("dialog-try-again", { problem: esc(r.error) }));
  }
}

export async function newPixelConversation(conversation: Convo, ctx: DialogContext) {
  await ctx.reply(ctx.t("pixel-ask", { types: PIXEL_TYPES.join(", ") }));
  for (;;) {
    const a = await text(conversation);
    const [type = "", pixelId = "", ...name] = a.text.split(/\s+/);
    const r = await attempt(conversation, async (o) => {
      const pixel = await write(o, createPixel, {
        type: type.toLowerCase(),
        pixelId,
        name: name.join(" ") || `${type} ${pixelId}`,
      });
      return pixel;
    });
    if (r.ok) return await conversation.external((o) => open(o, screenAt("pixels"), [], o.t("pixel-added", { name: esc(r.value.name) })));
    await a.c.reply(ctx.t("dialog-try-again", { problem: esc(r.error) }));
  }
}

export async function linkEmailConversation(conversation: Convo, ctx: DialogContext) {
  await ctx.reply(ctx.t("email-ask"));
  let email = "";
  while (!email) {
    const a = await text(conversation);
    const r = await attempt(conversation, (o) => sendLinkCode(o.deps, o.user.id, a.text));
    if (r.ok) email = a.text;
    else await a.c.reply(ctx.t("email-try-another", { problem: esc(r.error) }));
  }
  await ctx.reply(ctx.t("email-code-sent", { email: esc(email) }));
  for (;;) {
    const a = await text(conversation);
    const r = await attempt(conversation, (o) => verifyLinkCode(o.deps, o.user.id, email, a.text));
    if (r.ok) {
      const merged = r.value.merged;
      return await conversation.external((o) =>
        open(o, screenAt("settings"), [], o.t(merged ? "email-linked-merged" : "email-linked", { email: esc(email) })),
      );
    }
    await a.c.reply(ctx.t("email-code-again", { problem: esc(r.error) }));
  }
}

/** Reports → 🌍 Time zone: one answer (a zone, a city or an offset: readTimeZone), saved, the screen again. */
export async function timeZoneConversation(conversation: Convo, ctx: DialogContext) {
  await ctx.reply(ctx.t("time-zone-ask"));
  for (;;) {
    const { c, text: answer } = await text(conversation);
    const zone = readTimeZone(answer);
    if (!zone) {
      await c.reply(ctx.t("time-zone-unknown", { text: esc(answer) }));
      continue;
    }
    await conversation.external(async (o) => {
      await write(o, updateSettings, { time_zone: zone });
      await open(o, reportsScreen, [], o.t("time-zone-set", { zone: zoneName(zone, localeOf(o), o.deps.clock.now()) }));
    });
    return;
  }
}
