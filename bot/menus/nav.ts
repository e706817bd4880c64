/**
 * Screens: a `@grammyjs/menu` menu (the buttons) plus the text above it. A screen is drawn for a few
 * ids (a link; a page and a tag filter…): whoever opens it sets `ctx.view`, and every button of the
 * screen carries those ids as its payload, so a press re-draws the same screen without any session
 * state. Item buttons (a link in a list) append the item's id to the payload.
 */
import { Menu, MenuRange, type MenuFlavor } from "@grammyjs/menu";
import type { Filter, Transformer } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import { AppError } from "../../core/errors";
import type { BotContext } from "../context";
import { l } from "../i18n";
import { problemText } from "../problem";

export type MenuContext = Filter<BotContext, "callback_query:data"> & MenuFlavor;
type Text = (ctx: BotContext) => string | Promise<string>;
/** A button label: a translation drawn for the user (`l("key")` from bot/i18n.ts), or a name the user gave. */
export type Label = string | ((ctx: BotContext) => string);

export interface Screen {
  /** the menu's id */
  id: string;
  menu: Menu<BotContext>;
  text: Text;
  /** how many ids the screen is drawn for */
  arity: number;
}

const EXTRA = { parse_mode: "HTML", link_preview_options: { is_disabled: true } } as const;

/** The ids the current screen is drawn for: `ctx.view`, else the pressed button's payload. */
function ids(ctx: BotContext): number[] {
  if (ctx.view) return ctx.view;
  const m = typeof ctx.match === "string" ? ctx.match : "";
  return /^\d+(\.\d+)*$/.test(m) ? m.split(".").map(Number) : [];
}

/** The `i`-th id of the current screen (0 when absent). */
export const idOf = (ctx: BotContext, i = 0) => ids(ctx)[i] ?? 0;

/** The item id a pressed item button carries (after the screen's own ids). */
export const itemOf = (ctx: BotContext, screen: Screen) => ids(ctx)[screen.arity] ?? 0;

/** The payload of a button on `screen`: its ids, and the item's id for item buttons. */
export function payload(screen: Screen, item?: number) {
  return (ctx: BotContext) => [...ids(ctx).slice(0, screen.arity), ...(item === undefined ? [] : [item])].join(".");
}

/**
 * Edits the text of the message a button sits on (the menu plugin adds the keyboard). "Message is
 * not modified" is no error; a message Telegram no longer lets us edit (older than 48 hours, deleted)
 * gets the screen as a new message instead.
 */
async function edit(ctx: BotContext, text: string, menu: Menu<BotContext>) {
  await ctx.editMessageText(text, EXTRA).catch(async (e) => {
    const why = String(e?.description ?? e);
    if (/message is not modified/.test(why)) return;
    if (!/message can't be edited|message to edit not found/.test(why)) throw e;
    await ctx.reply(text, { ...EXTRA, reply_markup: { inline_keyboard: await render(menu, ctx) } });
  });
}

/**
 * Shows `screen` drawn for `view`: in place (the message the pressed menu button sits on) or, from a
 * command, a conversation or a button outside the menus, as a new message. `notice` heads the text.
 */
export async function open(ctx: BotContext, screen: Screen, view?: number[], notice?: string) {
  if (view) ctx.view = view;
  const body = await screen.text(ctx);
  const text = notice ? `${notice}\n\n${body}` : body;
  const menu = (ctx as Partial<MenuContext>).menu;
  if (menu && ctx.callbackQuery?.message) {
    menu.nav(screen.id);
    await edit(ctx, text, screen.menu);
  } else await ctx.reply(text, { ...EXTRA, reply_markup: { inline_keyboard: await render(screen.menu, ctx) } });
}

/**
 * The menu's buttons drawn for `ctx`. The menu middleware would draw a menu passed as reply_markup,
 * but a conversation answers through a context the middleware has not seen yet, so screens draw
 * themselves (with the same method the middleware uses).
 */
function render(menu: Menu<BotContext>, ctx: BotContext): Promise<InlineKeyboardButton[][]> {
  return (menu as unknown as { render(c: BotContext): Promise<InlineKeyboardButton[][]> }).render(ctx);
}

/**
 * Every screen by its menu id. Screens refer to each other by id (a card's back button to the list, the
 * list's items to the card) so that their modules need not import each other; bot/menus/root.ts
 * declares the tree. A static table of declarations, like the menus themselves.
 */
const SCREENS = new Map<string, Screen>();

/** The screen with menu id `id` (the main menu is "main"). */
export function screen(id: string): Screen {
  const s = SCREENS.get(id);
  if (!s) throw new Error(`no screen "${id}"`);
  return s;
}

/**
 * A screen. A press on an outdated copy (the list or the object changed since it was drawn) answers
 * so and re-draws the screen; when the object is gone the `fallback` screen is shown instead.
 */
export function createScreen(id: string, arity: number, text: Text): Screen {
  const self: Screen = { id, arity, text, menu: undefined as unknown as Menu<BotContext> };
  self.menu = new Menu<BotContext>(id, {
    onMenuOutdated: async (ctx) => {
      await ctx.answerCallbackQuery({ text: ctx.t("nav-outdated") });
      await act(ctx, () => open(ctx, self, ids(ctx).slice(0, arity)));
    },
  });
  SCREENS.set(id, self);
  return self;
}

/**
 * Runs a button's work; a domain error (the object is gone, a plan limit…) is shown in place above the
 * fallback screen instead of failing the update.
 */
export async function act(ctx: BotContext, run: () => unknown, fallback = "main") {
  try {
    await run();
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await open(ctx, screen(fallback), [], `⚠️ ${problemText(ctx, e)}`);
  }
}

/** A dynamic range whose builder may meet a vanished object: then it draws nothing (and a press is outdated). */
export function dynamic(menu: Menu<BotContext>, build: (ctx: BotContext, range: MenuRange<BotContext>) => void | Promise<void>) {
  menu.dynamic(async (ctx, range) => {
    try {
      await build(ctx, range);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      return new MenuRange<BotContext>();
    }
    return range;
  });
}

/**
 * A back button to the screen this one is registered under (menu id `parent`), drawn for
 * `view(ctx)` (default: no ids).
 */
export function back(self: Screen, label: Label, parent: string, view: (ctx: BotContext) => number[] | Promise<number[]> = () => []) {
  self.menu.back({ text: label, payload: payload(self) }, (ctx) =>
    act(ctx, async () => {
      ctx.view = await view(ctx);
      await edit(ctx, await screen(parent).text(ctx), screen(parent).menu);
    }));
}

/** A button that opens screen `target` in place, drawn for `view(ctx)`; `item` joins the payload. */
export function go(range: MenuRange<BotContext>, from: Screen, label: Label, target: string, view: (ctx: BotContext) => number[] | Promise<number[]>, item?: number) {
  range.text({ text: label, payload: payload(from, item) }, (ctx) => act(ctx, async () => open(ctx, screen(target), await view(ctx))));
}

/** A back button to the main menu, for screens registered under it. */
export const backHome = (self: Screen) => back(self, l("nav-menu"), "main");

/**
 * An API transformer that drops empty keyboard rows (a dynamic range that draws nothing leaves one).
 * Menus are checked against their own drawing, which is unchanged, so outdated detection still holds.
 */
export const dropEmptyRows: Transformer = (prev, method, payload, signal) => {
  const markup = (payload as { reply_markup?: { inline_keyboard?: unknown[][] } }).reply_markup;
  if (markup && Array.isArray(markup.inline_keyboard)) markup.inline_keyboard = markup.inline_keyboard.filter((row) => row.length > 0);
  return prev(method, payload, signal);
};
