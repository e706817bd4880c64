/**
 * Screens: a `@grammyjs/menu` menu (the buttons) plus the text above it. A screen is drawn for a few
 * ids (a link; a page and a tag filter…): whoever opens it sets `ctx.view`, and every button of the
 * screen carries those ids as its payload, so a press re-draws the same screen without any session
 * state. Item buttons (a link in a list) append the item's id to the payload.
 */
import { Menu, MenuRange, type MenuFlavor } from "@grammyjs/menu";
import type { Filter, Transformer } from "grammy";
import { AppError } from "../../core/errors";
import type { BotContext } from "../context";
import { l } from "../i18n";
import { problemText } from "../problem";

export type MenuContext = Filter<BotContext, "callback_query:data"> & MenuFlavor;
type Text = (ctx: BotContext) => string | Promise<string>;
/** A button label: a translation drawn for the user (`l("key")` from bot/i18n.ts), or a name the user gave. */
export type Label = string | ((ctx: BotContext) => string);

/**
 * A screen: a menu of the menu plugin that also knows the text above its buttons (`body`) and how many
 * ids it is drawn for (`arity`). Screens are registered in the plugin's own tree under the main menu
 * (bot/menus/root.ts); the plugin's registry (`menu.at(id)`, `ctx.menu.nav(id)`) finds them by id.
 */
export class Screen extends Menu<BotContext> {
  constructor(
    /** the menu id (public here: buttons name the screens they open by it) */
    override readonly id: string,
    /** how many ids the screen is drawn for */
    readonly arity: number,
    /** the text above the buttons */
    readonly body: Text,
  ) {
    super(id, { onMenuOutdated: redrawOutdated });
  }
}

const EXTRA = { link_preview_options: { is_disabled: true } } as const;

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
async function edit(ctx: BotContext, text: string, screen: Screen) {
  await ctx.editMessageText(text, EXTRA).catch(async (e) => {
    const why = String(e?.description ?? e);
    if (/message is not modified/.test(why)) return;
    if (!/message can't be edited|message to edit not found/.test(why)) throw e;
    await ctx.reply(text, { ...EXTRA, reply_markup: screen });
  });
}

/**
 * Shows `screen` drawn for `view`: in place (the message the pressed menu button sits on) or, from a
 * command, a conversation or a button outside the menus, as a new message. `notice` heads the text.
 */
export async function open(ctx: BotContext, screen: Screen, view?: number[], notice?: string) {
  if (view) ctx.view = view;
  const body = await screen.body(ctx);
  const text = notice ? `${notice}\n\n${body}` : body;
  const menu = (ctx as Partial<MenuContext>).menu;
  if (menu && ctx.callbackQuery?.message) {
    menu.nav(screen.id);
    return await edit(ctx, text, screen);
  }
  // the plugin draws a screen passed as reply_markup (bot/bot.ts lets its middleware see the update first)
  await ctx.reply(text, { ...EXTRA, reply_markup: screen });
}

/**
 * The main menu: the root of the tree every screen is registered in (bot/menus/root.ts adds its
 * buttons and the tree). Its registry is the menu plugin's own: `screenAt` looks screens up there.
 */
export const mainScreen = new Screen("main", 0, (ctx) => ctx.t("main-text"));

/** The registered screen with menu id `id` (the main menu is "main"), from the plugin's registry. */
export function screenAt(id: string): Screen {
  const menu = mainScreen.at(id);
  if (!(menu instanceof Screen)) throw new Error(`menu "${id}" is not a screen`);
  return menu;
}

/** A screen; see Screen. */
export function createScreen(id: string, arity: number, text: Text): Screen {
  return new Screen(id, arity, text);
}

/**
 * A press on an outdated copy of a screen (the list or the object changed since it was drawn) answers
 * so and re-draws the screen; when the object is gone the fallback screen is shown instead.
 */
async function redrawOutdated(ctx: MenuContext) {
  await ctx.answerCallbackQuery({ text: ctx.t("nav-outdated") });
  const self = screenAt(ctx.callbackQuery.data.split("/")[0]!);
  await act(ctx, () => open(ctx, self, ids(ctx).slice(0, self.arity)));
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
    await open(ctx, screenAt(fallback), [], `⚠️ ${Bun.escapeHTML(problemText(ctx, e))}`);
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
  self.back({ text: label, payload: payload(self) }, (ctx) =>
    act(ctx, async () => {
      ctx.view = await view(ctx);
      const to = screenAt(parent);
      await edit(ctx, await to.body(ctx), to);
    }),
  );
}

/** A button that opens screen `target` in place, drawn for `view(ctx)`; `item` joins the payload. */
export function go(
  range: MenuRange<BotContext>,
  from: Screen,
  label: Label,
  target: string,
  view: (ctx: BotContext) => number[] | Promise<number[]>,
  item?: number,
) {
  range.text({ text: label, payload: payload(from, item) }, (ctx) => act(ctx, async () => open(ctx, screenAt(target), await view(ctx))));
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
