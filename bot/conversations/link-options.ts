import type { Conversation } from "@grammyjs/conversations";
import type { Context } from "grammy";
import type { BotContext } from "../context";
import { AppError } from "../../core/errors";
import { createLink, editLink } from "../../core/links/links";
import type { LinkInput } from "../../core/links/validate";
import { urlSyntaxProblem } from "../../core/links/validate";
import { parseWhen } from "../../core/links/when";
import { createTag, deleteTag, listTags } from "../../core/catalog/tags";
import { countLinks, getLink } from "../../core/links/links";
import { assertWithinLimit } from "../../core/accounts/plans";
import { renderCard } from "../menus/link-card";

export const LINK_OPTIONS = "link-options";

type Step<T> = { value: T } | { error: string };
const SKIP = Symbol("skip");
const CLEAR = Symbol("clear");

/**
 * Creates a link (linkId null: asks for the URL first) or edits one, step by step: title, expiry,
 * start, click cap, password, platform targets, tags. Each answer is checked at once with a clear
 * message; /skip keeps a value, /clear removes it, /cancel stops without saving.
 */
export async function linkOptionsConversation(conversation: Conversation<BotContext, Context>, ctx: Context, linkId: number | null) {
  const current = linkId === null ? null : await conversation.external((o) => {
    const l = getLink(o.deps, o.user!.id, linkId);
    return { url: l.original_url, title: l.title, starts_at: l.starts_at, expires_at: l.expires_at, max_clicks: l.max_clicks, has_password: l.has_password, ios_url: l.ios_url, android_url: l.android_url, desktop_url: l.desktop_url };
  });
  const editing = current !== null;
  if (!editing) {
    // a full plan is said at once, not after every question
    const full = await conversation.external((o) => {
      try {
        assertWithinLimit(o.deps, o.user!, "links", countLinks(o.deps, o.user!.id));
        return null;
      } catch (e) {
        if (e instanceof AppError) return e.message;
        throw e;
      }
    });
    if (full) return void (await ctx.reply(`⛔️ ${full}`));
  }
  const hint = editing ? "/skip keeps it, /clear removes it, /cancel stops." : "/skip leaves it out, /cancel stops.";

  async function ask<T>(prompt: string, parse: (text: string) => Step<T> | Promise<Step<T>>, required = false, secret = false): Promise<T | typeof SKIP | typeof CLEAR> {
    await ctx.reply(`${prompt}\n${required ? "/cancel stops." : hint}`, { link_preview_options: { is_disabled: true } });
    for (;;) {
      const answer = await conversation.waitFor("message:text", { otherwise: (c) => c.reply("Please answer with text, or send /cancel.") });
      const text = answer.message.text.trim();
      if (text === "/cancel") {
        await answer.reply(editing ? "Cancelled. The link is unchanged." : "Cancelled. No link was created.");
        return conversation.halt();
      }
      if (!required && text === "/skip") return SKIP;
      if (editing && text === "/clear") return CLEAR;
      const step = await parse(text);
      if (secret) await answer.deleteMessage().catch(() => undefined); // keep the password out of the chat history
      if ("value" in step) return step.value;
      await answer.reply(`${step.error}\nTry again. ${required ? "/cancel stops." : hint}`);
    }
  }
  const now = new Date(await conversation.external((o) => o.deps.clock.now().getTime()));
  const input: LinkInput = {};
  const set = <K extends keyof LinkInput>(key: K, v: LinkInput[K] | typeof SKIP | typeof CLEAR) => {
    if (v === CLEAR) input[key] = null as LinkInput[K];
    else if (v !== SKIP) input[key] = v;
  };
  const asUrl = (text: string): Step<string> => {
    const p = urlSyntaxProblem(text); // the loop check comes with the save
    return p ? { error: `That is not a valid link: it ${p}.` } : { value: text };
  };
  const asWhen = (text: string): Step<string> => {
    const d = parseWhen(text, now);
    if (!d) return { error: "I could not read that time. Examples: 2h, 3d, 2026-06-01, 2026-06-01 18:30 (UTC)." };
    if (d.getTime() <= now.getTime()) return { error: "That moment has already passed; send a time in the future." };
    return { value: d.toISOString() };
  };
  const cur = (v: string | number | null | undefined) => (editing ? `\nNow: ${v ?? "not set"}` : "");

  if (!editing) set("url", await ask("Send the link to track (starting with http:// or https://).", asUrl, true));
  set("title", await ask(`Title of the link?${cur(current?.title)}`, (t) => (t.length > 200 ? { error: "A title is at most 200 characters." } : { value: t })));
  set("expires_at", await ask(`When should it expire?${cur(current?.expires_at)}`, asWhen));
  const expiry = input.expires_at !== undefined ? input.expires_at : current?.expires_at ?? null;
  set("starts_at", await ask(`When should it start working (a countdown shows until then)?${cur(current?.starts_at)}`, (t) => {
    const s = asWhen(t);
    if ("value" in s && expiry && s.value >= expiry) return { error: "The start must be earlier than the expiry." };
    return s;
  }));
  set("max_clicks", await ask(`Click cap (after that many visitors the link stops)?${cur(current?.max_clicks)}`, (t) =>
    /^\d{1,12}$/.test(t) && Number(t) > 0 ? { value: Number(t) } : { error: "Send a whole number greater than 0." }));
  set("password", await ask(`Password visitors must enter?${cur(current ? (current.has_password ? "set" : null) : null)}`, async (t) => {
    if (t.length > 200) return { error: "A password is at most 200 characters." };
    return { value: t };
  }, false, true));
  for (const [key, label] of [["ios_url", "iPhone and iPad"], ["android_url", "Android"], ["desktop_url", "desktop"]] as const)
    set(key, await ask(`Own target for ${label} visitors?${cur(current?.[key])}`, asUrl));
  const tagAnswer = await ask(`Tags, separated by commas (new ones are created)?${cur(editing ? "(see the card)" : null)}`, (t) => {
    const names = t.split(",").map((s) => s.trim()).filter(Boolean);
    if (!names.length || names.some((n) => n.length > 50)) return { error: "Send names of at most 50 characters, separated by commas." };
    return { value: names };
  });

  const result = await conversation.external(async (o) => {
    const userId = o.user!.id;
    /** tags this answer made, taken back when the link is not saved */
    const made: number[] = [];
    try {
      if (tagAnswer === CLEAR) input.tagIds = [];
      else if (tagAnswer !== SKIP) {
        const existing = new Map(listTags(o.deps, userId).map((t) => [t.name.toLowerCase(), t.id]));
        input.tagIds = (tagAnswer as string[]).map((n) => {
          const key = n.toLowerCase(); // the same name twice in one answer is one tag
          if (!existing.has(key)) {
            const id = createTag(o.deps, userId, n).id;
            made.push(id);
            existing.set(key, id);
          }
          return existing.get(key)!;
        });
      }
      const saved = editing ? await editLink(o.deps, userId, linkId!, input) : await createLink(o.deps, o.user!, input);
      const card = renderCard(o.deps, userId, saved.id);
      return { ok: true as const, text: card.text, keyboard: card.keyboard.inline_keyboard };
    } catch (e) {
      for (const id of made) deleteTag(o.deps, userId, id);
      if (!(e instanceof AppError)) throw e;
      const details = e.details?.map((d) => `• ${d.field}: ${d.message}`).join("\n");
      return { ok: false as const, text: details ? `Could not save the link:\n${details}` : `Could not save the link: ${e.message}` };
    }
  });
  if (!result.ok) return void (await ctx.reply(result.text));
  await ctx.reply(`${editing ? "✅ Saved." : "✅ Created."}\n\n${result.text}`, { parse_mode: "HTML", reply_markup: { inline_keyboard: result.keyboard }, link_preview_options: { is_disabled: true } });
}
