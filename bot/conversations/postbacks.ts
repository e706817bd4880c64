/**
 * A new postback in one answer and a few taps: the URL template (with GET or POST after it, or
 * "meta <pixel id> <access token>" for Meta's Conversions API), checked at once by core and refused
 * in a sentence; then the events as toggle buttons (or typed names); "Save and test" saves it through
 * the same core function as the API, opens its screen and sends a test whose answer comes below.
 */
import type { Conversation } from "@grammyjs/conversations";
import { write } from "../audited";
import type { BotContext, DialogContext } from "../context";
import { AppError } from "../../core/errors";
import { createPostback, type PostbackInput } from "../../core/conversions/postbacks";
import { ANY_EVENT, EVENT_NAME } from "../../core/conversions/events";
import { POSTBACK_MACROS, postbackTemplateProblem, type TemplateProblem } from "../../core/conversions/template";
import { problemText } from "../problem";
import { open } from "../menus/nav";
import { postbackScreen, scopeName, sendTest } from "../menus/postbacks";
import { eventLabel } from "../menus/conversion-lines";
import { dialogKeyboard, pressed } from "./choice";

type Convo = Conversation<BotContext, DialogContext>;
const esc = (s: string) => Bun.escapeHTML(s);

/** The events offered as buttons (any other can be typed): the service's own, the usual conversions, and every event. */
const OFFERED = ["click", "join_request", "join", "leave", "start", "lead", "purchase", ANY_EVENT];
/** The macros as the question and a refusal list them. */
const MACROS = POSTBACK_MACROS.map((m) => `<code>{${m}}</code>`).join(", ");
/** The template the question shows: an ad network's postback that takes the click id, the event and the value. */
const EXAMPLE = "https://network.example/postback?clickid={click_id}&goal={event}&sum={value}";

type Target = { url: string; method: "GET" | "POST" } | { kind: "meta"; pixel_id: string; access_token: string };

/** The receiver as typed: `<url> [GET|POST]`, or `meta <pixel id> <access token>`; null when it reads as neither. */
function readTarget(text: string): Target | null {
  const words = text.split(/\s+/);
  if (words[0]!.toLowerCase() === "meta") {
    if (words.length !== 3) return null;
    return { kind: "meta", pixel_id: words[1]!, access_token: words[2]! };
  }
  if (words.length > 2) return null;
  const method = (words[1] ?? "GET").toUpperCase();
  if (method !== "GET" && method !== "POST") return null;
  return { url: words[0]!, method };
}

/** Why a typed URL template cannot be used, in the reader's words. */
function refusal(ctx: DialogContext, problem: TemplateProblem): string {
  if (problem.kind === "unknown_macro") return ctx.t("pb-refuse-macro", { name: esc(`{${problem.name}}`), macros: MACROS });
  if (problem.kind === "too_long") return ctx.t("pb-refuse-long", { max: problem.max });
  return ctx.t("pb-refuse-http", { example: `<code>${esc(EXAMPLE)}</code>` });
}

/** Runs a core call from the dialog; a domain error comes back as its sentence. */
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

/** Asks for the receiver until it can be used; leaves the dialog on a command or a tap elsewhere. */
async function askTarget(conversation: Convo, ctx: DialogContext, scope: string): Promise<Target> {
  await ctx.reply(ctx.t("pb-ask-url", { scope, macros: MACROS, example: `<code>${esc(EXAMPLE)}</code>` }), {
    link_preview_options: { is_disabled: true },
  });
  for (;;) {
    const c = await conversation.wait();
    const text = c.message?.text?.trim();
    if (text === undefined || text.startsWith("/")) return conversation.halt({ next: true });
    const target = readTarget(text);
    const problem = target && "url" in target ? postbackTemplateProblem(target.url) : null;
    if (target && !problem) return target;
    await c.reply(problem ? refusal(ctx, problem) : ctx.t("pb-refuse-shape"));
  }
}

function eventsKeyboard(ctx: DialogContext, offered: string[], chosen: Set<string>) {
  const rows: string[][] = [];
  offered.forEach((e, i) => {
    const label = `${chosen.has(e) ? "✅" : "▫️"} ${eventLabel(ctx, e)}`;
    if (i % 2) rows.at(-1)!.push(label);
    else rows.push([label]);
  });
  return dialogKeyboard([...rows, [ctx.t("pb-save", { count: chosen.size }), ctx.t("choice-cancel")]]);
}

/** The events, toggled by buttons or typed (a typed name is chosen at once); null when cancelled. */
async function pickEvents(conversation: Convo, ctx: DialogContext): Promise<{ c: DialogContext; events: string[] } | null> {
  const offered = [...OFFERED];
  const chosen = new Set<string>();
  const picker = await ctx.reply(ctx.t("pb-pick-events"), { reply_markup: eventsKeyboard(ctx, offered, chosen) });
  const redraw = () =>
    ctx.api.editMessageReplyMarkup(picker.chat.id, picker.message_id, { reply_markup: eventsKeyboard(ctx, offered, chosen) });
  for (;;) {
    const c = await conversation.wait();
    const typed = c.message?.text?.trim();
    if (typed !== undefined && !typed.startsWith("/")) {
      const words = typed.split(/[\s,;]+/).filter(Boolean);
      const bad = words.find((w) => w !== ANY_EVENT && !EVENT_NAME.test(w.toLowerCase()));
      if (bad) {
        await c.reply(ctx.t("pb-refuse-event", { name: esc(bad) }));
        continue;
      }
      for (const w of words) {
        const e = w.toLowerCase();
        if (!offered.includes(e)) offered.push(e);
        chosen.add(e);
      }
      await redraw();
      continue;
    }
    const n = await pressed(c, picker);
    if (n === "stale") continue;
    if (n === undefined) return conversation.halt({ next: true });
    const event = offered[n];
    if (event) {
      chosen.has(event) ? chosen.delete(event) : chosen.add(event);
      await redraw();
      continue;
    }
    if (n > offered.length) {
      await ctx.api.editMessageReplyMarkup(picker.chat.id, picker.message_id).catch(() => undefined);
      await c.reply(ctx.t("pb-cancelled"));
      return null;
    }
    if (!chosen.size) {
      await c.reply(ctx.t("pb-pick-one"));
      continue;
    }
    // the picker keeps no live buttons once the postback exists
    await ctx.api.editMessageReplyMarkup(picker.chat.id, picker.message_id).catch(() => undefined);
    return { c, events: [...chosen] };
  }
}

/**
 * 📮 Postback of a link's or a placement's card (`kind` 1 or 2 with its id), or ➕ New postback of a
 * list (`kind` 0: every link and invite of the account): the receiver, the events, saved and tested.
 */
export async function newPostbackConversation(conversation: Convo, ctx: DialogContext, kind: number, id: number) {
  const scope = await conversation.external((o) => scopeName(o, kind, id));
  let target = await askTarget(conversation, ctx, scope);
  const picked = await pickEvents(conversation, ctx);
  if (!picked) return;
  const of = kind === 1 ? { link_id: id } : kind === 2 ? { placement_id: id } : {};
  for (;;) {
    const input: PostbackInput = { ...target, events: picked.events, ...of };
    const made = await attempt(conversation, (o) => write(o, createPostback, input));
    if (made.ok) return await saved(conversation, made.value.id);
    // what core refused (a Meta pixel id that is no number, a full account…) is said, and the receiver asked again
    await ctx.reply(ctx.t("warning", { text: esc(made.error) }));
    target = await askTarget(conversation, ctx, scope);
  }
}

/** The saved postback's screen, and a test sent at once whose answer comes below. */
async function saved(conversation: Convo, id: number) {
  await conversation.external(async (o) => {
    await open(o, postbackScreen, [id], o.t("pb-saved"));
    await sendTest(o, id);
  });
}
