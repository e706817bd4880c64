/**
 * Link dialogs, one answer each: "New link" asks for the URL and creates the link; an option of the
 * card asks its question and saves the answer through the same core function as the API (so the same
 * validation). A tap on any button or another command ends the dialog and is handled as usual.
 */
import type { Conversation } from "@grammyjs/conversations";
import { write } from "../audited";
import { refusedRole } from "../workspace";
import type { BotContext, DialogContext } from "../context";
import { AppError } from "../../core/errors";
import { createLink, editLink, getLink, countLinks } from "../../core/links/links";
import { deleteTag } from "../../core/catalog/tags";
import { assertWithinLimit } from "../../core/accounts/plans";
import { LINK_OPTIONS, type OptionEnv } from "../menus/link-options";
import { linkCard } from "../menus/link-card";
import { open } from "../menus/nav";
import { urlInMessage } from "../url-text";
import { problemText } from "../problem";
import { readerOf, tell } from "../i18n";
import { ownLinkTo } from "../../core/links/same-url";
import { askChoice } from "./choice";
import { whenExamples } from "../../core/i18n/wall";

type Convo = Conversation<BotContext, DialogContext>;

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
export async function createAndShow(ctx: BotContext, url: string, anyway = false, cutAt?: string) {
  if (await refusedRole(ctx)) return;
  const existing = anyway ? null : await ownLinkTo(ctx.deps, ctx.owner.id, url);
  if (existing) return ctx.conversation.enter(DUPLICATE_LINK, url, existing.id);
  try {
    const created = await write(ctx, createLink, { url });
    const cut = cutAt ? `\n${ctx.t("link-cut-at", { url: Bun.escapeHTML(cutAt) })}` : "";
    await open(ctx, linkCard, [created.id], `${ctx.t("link-created", { url: Bun.escapeHTML(created.trackingUrl) })}${cut}`);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply(ctx.t(e.status === 403 ? "link-limit" : "link-create-failed", { problem: Bun.escapeHTML(problemText(ctx, e)) }));
  }
}

/** The user already has a link to `url`: open it, or make another one anyway. */
export async function duplicateLinkConversation(conversation: Convo, ctx: DialogContext, url: string, existingId: number) {
  const shown = await conversation.external(async (o) => {
    const l = await getLink(o.deps, o.owner.id, existingId).catch(() => null);
    return l && { trackingUrl: l.trackingUrl, title: l.title, clicks: l.stats.totalClicks };
  });
  if (!shown) return void (await conversation.external((o) => createAndShow(o, url, true)));
  const question = shown.title
    ? ctx.t("link-duplicate-titled", { url: shown.trackingUrl, title: shown.title, clicks: shown.clicks })
    : ctx.t("link-duplicate", { url: shown.trackingUrl, clicks: shown.clicks });
  const { value } = await askChoice(conversation, ctx, question, {
    choices: [
      [ctx.t("link-duplicate-open"), "open"],
      [ctx.t("link-duplicate-new"), "new"],
    ],
    perRow: 2,
    read: (typed) => (/^(open|открыть)/i.test(typed) ? "open" : /^(new|another|make|новую|ещё|еще)/i.test(typed) ? "new" : null),
    hint: ctx.t("link-duplicate-hint"),
  });
  if (value === "cancel") return void (await ctx.reply(ctx.t("dialog-cancelled-nothing-created")));
  await conversation.external((o) => (value === "open" ? open(o, linkCard, [existingId]) : createAndShow(o, url, true)));
}

/** "New link" / bare /new: the plan limit first, then one question (the URL). */
export async function newLinkConversation(conversation: Convo, ctx: DialogContext) {
  const full = await conversation.external(async (o) => {
    try {
      assertWithinLimit(o.deps, o.owner, "links", await countLinks(o.deps, o.owner.id));
      return null;
    } catch (e) {
      if (e instanceof AppError) return problemText(o, e);
      throw e;
    }
  });
  if (full) return void (await ctx.reply(ctx.t("link-limit", { problem: Bun.escapeHTML(full) })));
  await ctx.reply(ctx.t("link-ask-url"));
  for (;;) {
    const { c } = await answer(conversation);
    const reading = await conversation.external((o) => urlInMessage(c.message!, o.deps));
    if (reading && "url" in reading) {
      const existingId = await conversation.external(async (o) => (await ownLinkTo(o.deps, o.owner.id, reading.url))?.id ?? null);
      if (existingId !== null) return await duplicateLinkConversation(conversation, ctx, reading.url, existingId);
      return await conversation.external((o) => createAndShow(o, reading.url, true));
    }
    await c.reply(ctx.t("link-ask-url-again", { problem: Bun.escapeHTML(reading ? tell(ctx, reading.problem) : ctx.t("url-not-a-link")) }));
  }
}

/** One option of link `linkId`: the question, then the answer saved (or its problem, and another try). */
export async function linkOptionConversation(conversation: Convo, ctx: DialogContext, linkId: number, index: number) {
  const option = LINK_OPTIONS[index];
  if (!option?.ask) return;
  const ask = option.ask;
  const { now, reader } = await conversation.external((o) => ({ now: o.deps.clock.now().toISOString(), reader: readerOf(o) }));
  await ctx.reply(
    ctx.t(ask.clear ? "option-ask-clearable" : "option-ask", {
      label: ctx.t(option.label),
      prompt: ctx.t(ask.prompt, { when: whenExamples(reader, new Date(now)) }),
    }),
    { link_preview_options: { is_disabled: true } },
  );
  for (;;) {
    const { c, text } = await answer(conversation, ["/clear"]);
    if (text === "/clear" && !ask.clear) {
      await c.reply(ctx.t("option-cannot-clear", { option: ctx.t(option.label).replace(/^\S+\s/, "") }));
      continue;
    }
    if (ask.secret) await c.deleteMessage().catch(() => undefined); // keep the password out of the chat history
    const result = await conversation.external(async (o) => {
      const env: OptionEnv = {
        deps: o.deps,
        userId: o.owner.id,
        now: o.deps.clock.now(),
        reader: readerOf(o),
        link: await getLink(o.deps, o.owner.id, linkId),
        madeTags: [],
        by: o,
      };
      try {
        await write(o, editLink, linkId, text === "/clear" ? ask.clear! : await ask.parse(text, env));
        await open(
          o,
          linkCard,
          [linkId],
          o.t(text === "/clear" ? "option-cleared" : "option-saved", { option: o.t(option.label).replace(/^\S+\s/, "") }),
        );
        return null;
      } catch (e) {
        for (const id of env.madeTags) await write(o, deleteTag, id);
        if (!(e instanceof AppError)) throw e;
        return e.status === 404 ? { gone: problemText(o, e) } : { problem: problemText(o, e) };
      }
    });
    if (!result) return;
    if ("gone" in result) return void (await c.reply(ctx.t("warning", { text: Bun.escapeHTML(result.gone!) })));
    await c.reply(ctx.t("dialog-try-again", { problem: Bun.escapeHTML(result.problem!) }));
  }
}
