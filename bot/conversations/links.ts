/**
 * Link dialogs, one answer each: "New link" asks for the URL and creates the link; an option of the
 * card asks its question and saves the answer through the same core function as the API (so the same
 * validation). A tap on any button or another command ends the dialog and is handled as usual.
 */
import type { Conversation } from "@grammyjs/conversations";
import type { Context } from "grammy";
import type { BotContext, DialogContext } from "../context";
import { AppError } from "../../core/errors";
import { createLink, editLink, getLink, countLinks } from "../../core/links/links";
import { deleteTag } from "../../core/catalog/tags";
import { assertWithinLimit } from "../../core/accounts/plans";
import { LINK_OPTIONS, type OptionEnv } from "../menus/link-options";
import { linkCard } from "../menus/link-card";
import { open } from "../menus/nav";
import { urlInMessage } from "../url-text";
import { plainProblem } from "../plain";
import { ownLinkTo } from "../../core/links/same-url";
import { askChoice } from "./choice";
import { promptOf } from "./option-answer";

type Convo = Conversation<BotContext, DialogContext>;

/** An error as the user reads it: each field's problem as a sentence naming the option (bot/plain.ts). */
export const problemText = plainProblem;

/**
 * Waits for a text answer; anything else (a tap, a file, another command) leaves the dialog and is
 * handled as usual. (/cancel never gets here: the bot answers it before any dialog.)
 */
async function answer(conversation: Convo, extra: string[] = []) {
  const c = await conversation.wait();
  const text = c.message?.text?.trim();
  if (text === undefined || (text.startsWith("/") && !extra.includes(text))) return conversation.halt({ next: true });
  return { c, text };
}

export const DUPLICATE_LINK = "duplicate-link";

/**
 * Creates a link for the user from `url` and shows its card; a domain error is said instead. When
 * the user already has a link to that URL (and `anyway` is not set), the dialog offers it first.
 */
export async function createAndShow(ctx: BotContext, url: string, anyway = false) {
  const existing = anyway ? null : await ownLinkTo(ctx.deps, ctx.user!.id, url);
  if (existing) return ctx.conversation.enter(DUPLICATE_LINK, url, existing.id);
  try {
    const created = await createLink(ctx.deps, ctx.user!, { url });
    await open(ctx, linkCard, [created.id], `✅ Your tracking link:\n${Bun.escapeHTML(created.trackingUrl)}\nTap an option below to change it.`);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply(e.status === 403 ? `⛔️ ${e.message}` : `Could not create the link:\n${problemText(e)}`);
  }
}

/** The user already has a link to `url`: open it, or make another one anyway. */
export async function duplicateLinkConversation(conversation: Convo, ctx: DialogContext, url: string, existingId: number) {
  const shown = await conversation.external(async (o) => {
    const l = await getLink(o.deps, o.user!.id, existingId).catch(() => null);
    return l && { trackingUrl: l.trackingUrl, title: l.title, clicks: l.stats.totalClicks };
  });
  if (!shown) return void (await conversation.external((o) => createAndShow(o, url, true)));
  const { value } = await askChoice(conversation, ctx, `You already have a link to this URL: ${shown.trackingUrl}${shown.title ? ` (${shown.title})` : ""}, ${shown.clicks} clicks so far.`, {
    choices: [["📂 Open it", "open"], ["➕ Make another", "new"]],
    perRow: 2,
    read: (typed) => (/^(open|открыть)/i.test(typed) ? "open" : /^(new|another|make|новую|ещё|еще)/i.test(typed) ? "new" : null),
    hint: "Press 📂 Open it or ➕ Make another, or /cancel.",
  });
  if (value === "cancel") return void (await ctx.reply("Cancelled. Nothing was created."));
  await conversation.external((o) => (value === "open" ? open(o, linkCard, [existingId]) : createAndShow(o, url, true)));
}

/** "New link" / bare /new: the plan limit first, then one question (the URL). */
export async function newLinkConversation(conversation: Convo, ctx: DialogContext) {
  const full = await conversation.external(async (o) => {
    try {
      assertWithinLimit(o.deps, o.user!, "links", await countLinks(o.deps, o.user!.id));
      return null;
    } catch (e) {
      if (e instanceof AppError) return e.message;
      throw e;
    }
  });
  if (full) return void (await ctx.reply(`⛔️ ${full}`));
  await ctx.reply("Send the link to shorten (a URL or a domain like example.com). /cancel stops.");
  for (;;) {
    const { c, text } = await answer(conversation);
    const reading = await conversation.external((o) => urlInMessage(c.message!, o.deps));
    if (reading && "url" in reading) {
      const existingId = await conversation.external(async (o) => (await ownLinkTo(o.deps, o.user!.id, reading.url))?.id ?? null);
      if (existingId !== null) return await duplicateLinkConversation(conversation, ctx, reading.url, existingId);
      return await conversation.external((o) => createAndShow(o, reading.url, true));
    }
    await c.reply(`${reading ? reading.problem : "That does not look like a link."}\nSend a URL, or /cancel.`);
  }
}

/** One option of link `linkId`: the question, then the answer saved (or its problem, and another try). */
export async function linkOptionConversation(conversation: Convo, ctx: DialogContext, linkId: number, index: number) {
  const option = LINK_OPTIONS[index];
  if (!option?.ask) return;
  const ask = option.ask;
  const now = await conversation.external((o) => o.deps.clock.now().toISOString());
  await ctx.reply(`${option.label}: ${promptOf(ask.prompt, new Date(now))}\n${ask.clear ? "/clear removes it · " : ""}/cancel keeps it as it is.`, { link_preview_options: { is_disabled: true } });
  for (;;) {
    const { c, text } = await answer(conversation, ["/clear"]);
    if (text === "/clear" && !ask.clear) {
      await c.reply(`${option.label.replace(/^\S+\s/, "")} cannot be removed; send a new one, or /cancel.`);
      continue;
    }
    if (ask.secret) await c.deleteMessage().catch(() => undefined); // keep the password out of the chat history
    const result = await conversation.external(async (o) => {
      const env: OptionEnv = { deps: o.deps, userId: o.user!.id, now: o.deps.clock.now(), link: await getLink(o.deps, o.user!.id, linkId), madeTags: [] };
      try {
        await editLink(o.deps, env.userId, linkId, text === "/clear" ? ask.clear! : await ask.parse(text, env));
        await open(o, linkCard, [linkId], `✅ ${text === "/clear" ? "Cleared" : "Saved"}: ${option.label.replace(/^\S+\s/, "")}.`);
        return null;
      } catch (e) {
        for (const id of env.madeTags) await deleteTag(o.deps, env.userId, id);
        if (!(e instanceof AppError)) throw e;
        return e.status === 404 ? { gone: e.message } : { problem: problemText(e) };
      }
    });
    if (!result) return;
    if ("gone" in result) return void (await c.reply(`⚠️ ${result.gone}`));
    await c.reply(`${result.problem}\nTry again, or /cancel.`);
  }
}
