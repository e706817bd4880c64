/**
 * Secure-sharing conversations: name a new folder (then store what was waiting for one), and create
 * a share link (expiry, then max views: a button or a typed answer such as "7 days" or "3"; then a
 * password typed, or the "No password" button), ending on the file's screen. I/O only through
 * conversation.external.
 */
import type { Conversation } from "@grammyjs/conversations";
import { write } from "../audited";
import { createFolder } from "../../core/secure/folders";
import { createShareLink } from "../../core/secure/share-links";
import { AppError } from "../../core/errors";
import type { BotContext, DialogContext } from "../context";
import { problemText } from "../problem";
import { storePending } from "../menus/store-in";
import { open } from "../menus/nav";
import { fileScreen, folderScreen, shareScreen } from "../menus/secure";
import { SHARE_OPTIONS } from "../menus/share-options";
import { askChoice, dialogKeyboard, pressed } from "./choice";
import { parseWhen } from "../../core/links/when";
import { sharePasswordHash } from "../../core/secure/share-password";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../core/links/password";

type Convo = Conversation<BotContext, DialogContext>;

/** The expiry choices in hours, labelled by `share-hours` in the user's language. */
const EXPIRY_HOURS = [1, 24, 168, 720];
const expiryChoices = (ctx: DialogContext): [string, number][] =>
  EXPIRY_HOURS.map((h) => [ctx.t("share-hours", { hours: h, days: h / 24 }), h]);
const viewChoices = (ctx: DialogContext): [string, number][] => [
  ["1", 1],
  ["3", 3],
  ["10", 10],
  [ctx.t("share-views-unlimited"), 0],
];

/**
 * "12h", "3 дня", "через неделю", "friday" (its end) → whole hours from `now` (null: not understood or
 * past), read as every other typed time is (core/links/when.ts) in the user's zone.
 */
function readHours(text: string, now: Date, zone: string): number | null {
  const at = parseWhen(text, now, zone, { dayEnd: true });
  const hours = at ? Math.ceil((at.getTime() - now.getTime()) / 3_600_000) : 0;
  return hours > 0 ? hours : null;
}

/** "3", "unlimited" → views (0: unlimited; null: not understood). */
function readViews(text: string): number | null {
  const t = text.trim().toLowerCase();
  if (/^(unlimited|∞|no limit|без ограничений|безлимит\S*)$/.test(t)) return 0;
  return /^\d{1,6}$/.test(t) && Number(t) > 0 ? Number(t) : null;
}

/** Asks for a folder name, creates it and stores the item waiting under `key` (or the latest, if any) there. */
export async function newFolderConversation(conversation: Convo, ctx: DialogContext, key?: string) {
  await ctx.reply(ctx.t("folder-ask-name"));
  const answer = await conversation.wait();
  const name = answer.message?.text?.trim();
  if (name === "/cancel") return answer.reply(ctx.t("cancelled"));
  // anything else (a button, a command, a file) leaves the conversation and is handled as usual
  if (!name || name.startsWith("/")) return conversation.halt({ next: true });
  if (name.length > 100) return answer.reply(ctx.t("folder-name-too-long"));
  await conversation.external(async (outer) => {
    const folder = await write(outer, createFolder, { name });
    if (!(await storePending(outer, folder.id, key)))
      await open(outer, folderScreen, [folder.id], outer.t("folder-created", { name: Bun.escapeHTML(name) }));
  });
}

/**
 * The share link's password: typed (deleted from the chat at once, checked by the same rule as the
 * API's, asked again when it breaks it) or none with the button. Its hash, null for none, or
 * "cancel"; "left" when the person did something else.
 */
async function askPassword(conversation: Convo, ctx: DialogContext): Promise<string | null | "cancel" | "left"> {
  const asked = await ctx.reply(ctx.t("share-ask-password", { min: PASSWORD_MIN, max: PASSWORD_MAX }), {
    reply_markup: dialogKeyboard([[ctx.t("share-no-password")], [ctx.t("choice-cancel")]]),
  });
  const close = () => ctx.api.editMessageReplyMarkup(asked.chat.id, asked.message_id).catch(() => undefined);
  for (;;) {
    const c = await conversation.wait();
    const n = await pressed(c, asked);
    if (n === "stale") continue;
    if (n !== undefined) {
      await close();
      return n === 0 ? null : "cancel";
    }
    const typed = c.message?.text;
    if (typed === undefined || typed.trim().startsWith("/")) return "left";
    await c.deleteMessage().catch(() => undefined);
    const hash = await conversation.external(async () => {
      try {
        return await sharePasswordHash(typed);
      } catch (e) {
        if (e instanceof AppError) return undefined;
        throw e;
      }
    });
    if (hash) {
      await close();
      return hash;
    }
    await c.reply(ctx.t("share-password-rule", { min: PASSWORD_MIN, max: PASSWORD_MAX }));
  }
}

/** Asks for expiry, max views and a password, creates the link and shows the file's screen with the new URL. */
export async function shareConversation(conversation: Convo, ctx: DialogContext, fileId: number) {
  const expiry = expiryChoices(ctx);
  const { now, zone } = await conversation.external((o) => ({ now: o.deps.clock.now().toISOString(), zone: o.timeZone ?? "UTC" }));
  const e = await askChoice(conversation, ctx, ctx.t("share-ask-expiry"), {
    choices: expiry,
    perRow: expiry.length,
    read: (text) => readHours(text, new Date(now), zone),
    hint: ctx.t("share-expiry-hint"),
  });
  if (e.value === "cancel") return e.c.reply(ctx.t("cancelled"));
  const hours = e.value;
  const views = viewChoices(ctx);
  const v = await askChoice(conversation, e.c, ctx.t("share-ask-views"), {
    choices: views,
    perRow: views.length,
    read: readViews,
    hint: ctx.t("share-views-hint"),
  });
  if (v.value === "cancel") return v.c.reply(ctx.t("cancelled"));
  const maxViews = v.value || null;
  const passwordHash = await askPassword(conversation, v.c);
  if (passwordHash === "left") return conversation.halt({ next: true });
  if (passwordHash === "cancel") return v.c.reply(ctx.t("cancelled"));
  const label = expiry.find(([, h]) => h === hours)?.[0] ?? ctx.t("share-hours", { hours, days: 0 });
  await conversation.external(async (outer) => {
    try {
      const link = await write(outer, createShareLink, { fileId, expiresInHours: hours, maxViews, passwordHash });
      const made = outer.t("share-created", { valid: label, views: maxViews ?? 0, url: Bun.escapeHTML(link.url) });
      await open(outer, fileScreen, [fileId], passwordHash ? `${made}\n${outer.t("share-created-password")}` : made);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await outer.reply(outer.t("warning", { text: Bun.escapeHTML(problemText(outer, err)) }));
    }
  });
}

/** One option of share link `id` (a row of SHARE_OPTIONS): the question, then the answer saved through core. */
export async function shareOptionConversation(conversation: Convo, ctx: DialogContext, id: number, index: number) {
  const ask = SHARE_OPTIONS[index]?.ask;
  if (!ask) return;
  await ctx.reply(ctx.t("share-option-ask", { prompt: ctx.t(ask.prompt, ask.vars) }));
  for (;;) {
    const c = await conversation.wait();
    const text = c.message?.text?.trim();
    if (text === undefined || (text.startsWith("/") && text !== "/clear")) return conversation.halt({ next: true });
    if (ask.secret) await c.deleteMessage().catch(() => undefined);
    const problem = await conversation.external(async (o) => {
      try {
        await ask.save(o, id, text === "/clear" ? null : text);
        await open(o, shareScreen, [id], o.t(text === "/clear" ? "share-option-removed" : "share-option-saved"));
        return null;
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        return problemText(o, e);
      }
    });
    if (problem === null) return;
    await c.reply(ctx.t("dialog-try-again", { problem: Bun.escapeHTML(problem) }));
  }
}
