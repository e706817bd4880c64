import { timeZoneOf } from "../core/i18n/zone";
import { Bot, Composer, session, type Middleware } from "grammy";
import { autoRetry } from "@grammyjs/auto-retry";
import { countBotApiCalls } from "../core/metrics";
import { conversations } from "@grammyjs/conversations";
import type { Deps } from "../core/deps";
import { findUserByIdentity, upsertTelegramUser } from "../core/accounts/users";
import { i18n } from "./i18n";
import type { BotContext, SessionData, UpdateContext } from "./context";
import { requireUser } from "./require-user";
import { actingIn } from "./workspace";
import { dbStorage } from "./storage";
import { FEATURES } from "./features";
import { startFeature } from "./features/start";
import { unhandledFeature } from "./features/unhandled";
import { CONVERSATIONS, guardDialogs } from "./conversations";
import { menus } from "./menus/root";
import { dropEmptyRows } from "./menus/nav";
import { htmlByDefault } from "../core/delivery/parse-mode";

/** A press of a menu button: the plugin's callback data is `<menu>/<row>/<column>/<payload>/<hash>`; the bot's others have none. */
const isMenuPress = (ctx: UpdateContext) => ctx.callbackQuery?.data?.includes("/") === true;

export interface BotOptions {
  /** the feature middleware, in order, between the menus and the unhandled fallback (default: FEATURES) */
  features?: readonly Middleware<UpdateContext>[];
}

/**
 * Builds the bot (not started). Order: deps and user → session → conversations plugin → /start,
 * /help, /cancel → each conversation → the menus → `features` → unhandled. Everything runs inside an
 * error boundary. Sessions and conversation state live in SQLite.
 */
export function createBot(deps: Deps & { config: { botToken: string } }, { features = FEATURES }: BotOptions = {}) {
  const bot = new Bot<UpdateContext>(deps.config.botToken, {
    client: { apiRoot: deps.config.botApiRoot },
  });
  // counted first, so that every attempt is (auto-retry's included)
  if (deps.metrics) bot.api.config.use(countBotApiCalls(deps.metrics));
  bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 60 }));
  bot.api.config.use(dropEmptyRows);
  bot.api.config.use(htmlByDefault);

  const guarded = bot.errorBoundary(async (err) => {
    deps.log.error(`bot update ${err.ctx.update.update_id} failed`, err.error);
    // the person is told, and a pressed button stops spinning
    const t = (key: string) => (err.ctx.t ? err.ctx.t(key) : i18n.t("en", key));
    if (err.ctx.callbackQuery) await err.ctx.answerCallbackQuery({ text: t("error-toast"), show_alert: true }).catch(() => undefined);
    else if (err.ctx.chat?.type === "private") await err.ctx.reply(t("error-message")).catch(() => undefined);
  });
  guarded.use(async (ctx, next) => {
    ctx.deps = deps;
    if (ctx.from && !ctx.from.is_bot && ctx.chat?.type === "private") {
      // someone's deep link as the first contact greets (bot/features/start.ts): asked only then
      if (ctx.message?.text?.startsWith("/start ")) ctx.firstContact = !(await findUserByIdentity(deps, "telegram", String(ctx.from.id)));
      ctx.user = await upsertTelegramUser(deps, {
        id: ctx.from.id,
        username: ctx.from.username,
        firstName: ctx.from.first_name,
        appLanguage: ctx.from.language_code,
      });
      ctx.timeZone = await timeZoneOf(deps, ctx.user.id);
      Object.assign(ctx, await actingIn(deps, ctx.user));
    }
    await next();
  });
  guarded.use(i18n);
  guarded.use(session({ initial: (): SessionData => ({}), storage: dbStorage<SessionData>(deps.asyncDb, "session:") }));
  // dialogs call the Bot API through a client of their own, which the bot's transformers do not reach
  const dialogApi = (ctx: UpdateContext, next: () => Promise<void>) => {
    ctx.api.config.use(dropEmptyRows);
    ctx.api.config.use(htmlByDefault);
    return next();
  };
  // a dialog's context is its own: it learns the user's chosen language before translating
  const dialogUser = async (ctx: UpdateContext, next: () => Promise<void>) => {
    if (ctx.from) ctx.user = await findUserByIdentity(deps, "telegram", String(ctx.from.id));
    return next();
  };
  guarded.use(conversations({ storage: dbStorage(deps.asyncDb, "conversation:"), plugins: [dialogApi, dialogUser, i18n] as never[] }));
  // /start and /cancel must run before any conversation can swallow the update
  // The menu plugin draws a screen passed as reply_markup, through a transformer its middleware
  // installs as an update passes it. Every update but a menu press passes it first, so that /start
  // and the dialogs can send screens; a press passes it after the dialogs, as its button may enter one.
  const drawing = new Composer<BotContext>();
  drawing.drop(isMenuPress, menus);
  const pressing = new Composer<BotContext>();
  pressing.filter(isMenuPress, menus);
  // what a person does in a private chat is behind requireUser: ctx.user is set there
  guarded.use(requireUser(guardDialogs, drawing, startFeature, ...CONVERSATIONS, pressing));
  for (const feature of features) guarded.use(feature);
  guarded.use(unhandledFeature);
  return bot;
}
