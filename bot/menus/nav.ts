/**
 * Screens: a `@grammyjs/menu` menu (the buttons) plus the text above it. A screen is drawn for a few
 * ids (a link; a page and a tag filter…) and every button of the screen carries those ids as its
 * payload, so a press re-draws the same screen without any session state. Item buttons (a link in a
 * list) append the item's id to the payload.
 *
 * One draw, one load: a screen declares `load` (its model for its ids), `body` (the text, from the
 * model) and its dynamic ranges through `buttons` (the keyboard, from the same model). Whatever draws
 * a screen goes through `draw`, the one place that sets `ctx.draw` = { screen, ids, model }: `open`,
 * `back`, and a press (the pressed screen, for the ids its button carries). The model is loaded at the
 * first use within that draw and shared by the body and every range; it lives on the update's context
 * and a new draw (after a button changed something) loads afresh, so a stale model is never shown.
 * `idOf`, `itemOf` and `payload` read the ids from `ctx.draw` too: there is no other channel for them.
 * Every screen is declared so; buttons that need no data are static on the screen (a press that only
 * looks up its button then loads nothing).
 */
import { Menu, MenuRange, type MenuFlavor } from "@grammyjs/menu";
import type { Filter, Transformer } from "grammy";
import { AppError } from "../../core/errors";
import type { BotContext } from "../context";
import { l } from "../i18n";
import { problemText } from "../problem";

export type MenuContext = Filter<BotContext, "callback_query:data"> & MenuFlavor;
/** A button label: a translation drawn for the user (`l("key")` from bot/i18n.ts), or a name the user gave. */
export type Label = string | ((ctx: BotContext) => string);

/** How a screen is drawn: its model loaded once for its ids, and the text above its buttons from that model. */
export interface ScreenSpec<M> {
  /** the model for the screen's ids (absent: the screen needs no data) */
  load?: (ctx: BotContext, ids: number[]) => M | Promise<M>;
  /** the text above the buttons */
  body: (ctx: BotContext, model: M) => string | Promise<string>;
}

/**
 * A screen: a menu of the menu plugin that also knows how to load its model (`load`), the text above
 * its buttons (`body`) and how many ids it is drawn for (`arity`). Screens are registered in the
 * plugin's own tree under the main menu (bot/menus/root.ts); the plugin's registry (`menu.at(id)`,
 * `ctx.menu.nav(id)`) finds them by id.
 */
export class Screen<M = any> extends Menu<BotContext> {
  constructor(
    /** the menu id (public here: buttons name the screens they open by it) */
    override readonly id: string,
    /** how many ids the screen is drawn for */
    readonly arity: number,
    private readonly spec: ScreenSpec<M>,
  ) {
    super(id, { onMenuOutdated: redrawOutdated });
  }

  /** The model for `ids` (read once per draw through `modelOf`). */
  load(ctx: BotContext, ids: number[]): M | Promise<M> {
    return this.spec.load ? this.spec.load(ctx, ids) : (undefined as M);
  }

  /** The text above the buttons, from the draw's model. */
  body(ctx: BotContext, model: M): string | Promise<string> {
    return this.spec.body(ctx, model);
  }

  /** A press on one of this screen's buttons begins the draw of the pressed screen, for the ids its button carries. */
  override middleware() {
    const menus = super.middleware();
    return (ctx: BotContext, next: () => Promise<void>) => {
      const [id, row, col, carried = ""] = ctx.callbackQuery?.data?.split("/") ?? [];
      const pressed = id && row && col ? this.index.get(id) : undefined;
      if (pressed instanceof Screen) draw(ctx, pressed, parseIds(carried));
      return menus(ctx, next);
    };
  }
}

const EXTRA = { link_preview_options: { is_disabled: true } } as const;

/** The ids a button's payload carries ("12.3"); none for anything else. */
const parseIds = (carried: string) => (/^\d+(\.\d+)*$/.test(carried) ? carried.split(".").map(Number) : []);

/**
 * Begins drawing `screen` for `ids`: the one place `ctx.draw` is set. The model is not loaded yet:
 * `modelOf` loads it at its first use and every later use within this draw shares it.
 */
function draw(ctx: BotContext, screen: Screen, ids: number[]) {
  ctx.draw = { screen: screen.id, ids };
}

/** The model of the screen being drawn, loaded once per draw. */
export function modelOf<M>(ctx: BotContext, screen: Screen<M>): Promise<M> {
  const d = ctx.draw;
  if (d?.screen !== screen.id) throw new Error(`screen "${screen.id}" used outside its draw`);
  d.model ??= Promise.resolve().then(() => screen.load(ctx, d.ids.slice(0, screen.arity)));
  return d.model as Promise<M>;
}

/** Draws `screen` for `ids` and returns its text. */
async function textOf(ctx: BotContext, screen: Screen, ids: number[]) {
  draw(ctx, screen, ids);
  return await screen.body(ctx, await modelOf(ctx, screen));
}

/** The ids the screen being drawn is drawn for (with the pressed item's id after them). */
const ids = (ctx: BotContext) => ctx.draw?.ids ?? [];

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
 * Shows `screen` drawn for `ids`: in place (the message the pressed menu button sits on) or, from a
 * command, a conversation or a button outside the menus, as a new message. `notice` heads the text.
 */
export async function open(ctx: BotContext, screen: Screen, ids: number[], notice?: string) {
  const body = await textOf(ctx, screen, ids);
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
export const mainScreen = new Screen("main", 0, { body: (ctx) => ctx.t("main-text") });

/** The registered screen with menu id `id` (the main menu is "main"), from the plugin's registry. */
export function screenAt(id: string): Screen {
  const menu = mainScreen.at(id);
  if (!(menu instanceof Screen)) throw new Error(`menu "${id}" is not a screen`);
  return menu;
}

/** A screen; see Screen. A screen with no data gives its body alone (`{ body }`). */
export function createScreen<M = void>(id: string, arity: number, spec: ScreenSpec<M>): Screen<M> {
  return new Screen(id, arity, spec);
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

/**
 * A dynamic range of `screen`, built from the draw's model (the one the body was drawn from): the
 * builder is synchronous, so whatever a button shows is in the model and nothing is read beside it. A
 * model that cannot be loaded (a vanished object) draws nothing, and a press on the old copy is outdated.
 */
export function buttons<M>(screen: Screen<M>, build: (ctx: BotContext, range: MenuRange<BotContext>, model: M) => void) {
  screen.dynamic(async (ctx, range) => {
    try {
      build(ctx, range, await modelOf(ctx, screen));
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
      const to = screenAt(parent);
      await edit(ctx, await textOf(ctx, to, await view(ctx)), to);
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
