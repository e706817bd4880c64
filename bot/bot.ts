import { getSettings } from "../core/reports/settings";
import { Bot, session } from "grammy";
import { autoRetry } from "@grammyjs/auto-retry";
import { countBotApiCalls } from "../core/metrics";
import { conversations } from "@grammyjs/conversations";
import type { Deps } from "../core/deps";
import { findUserByIdentity, upsertTelegramUser } from "../core/accounts/users";
import { i18n } from "./i18n";
import type { BotContext, SessionData } from "./context";
import { dbStorage } from "./storage";
import { FEATURES } from "./features";
import { startFeature } from "./features/start";
import { unhandledFeature } from "./features/unhandled";
import { CONVERSATIONS } from "./conversations";
import { menus } from "./menus/root";
import { dropEmptyRows } from "./menus/nav";

/**
 * Builds the bot (not started). Order: deps and user → session → conversations plugin → /start,
 * /help, /cancel → each conversation → the menus → features → unhandled. Everything runs inside an
 * error boundary. Sessions and conversation state live in SQLite.
 */
export function createBot(deps: Deps & { config: { botToken: string } }) {
  const bot = new Bot<BotContext>(deps.config.botToken, {
    client: { apiRoot: deps.config.botApiRoot },
  });
  // counted first, so that every attempt is (auto-retry's included)
  if (deps.metrics) bot.api.config.use(countBotApiCalls(deps.metrics));
  bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 60 }));
  bot.api.config.use(dropEmptyRows);

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
      ctx.user = await upsertTelegramUser(deps, { id: ctx.from.id, username: ctx.from.username, firstName: ctx.from.first_name, appLanguage: ctx.from.language_code });
      ctx.timeZone = (await getSettings(deps, ctx.user.id)).time_zone;
    }
    await next();
  });
  guarded.use(i18n);
  guarded.use(session({ initial: (): SessionData => ({}), storage: dbStorage<SessionData>(deps.asyncDb, "session:") }));
  // dialogs call the Bot API through a client of their own, which the bot's transformers do not reach
  const dialogApi = (ctx: BotContext, next: () => Promise<void>) => {
    ctx.api.config.use(dropEmptyRows);
    return next();
  };
  // a dialog's context is its own: it learns the user's chosen language before translating
  const dialogUser = async (ctx: BotContext, next: () => Promise<void>) => {
    if (ctx.from) ctx.user = await findUserByIdentity(deps, "telegram", String(ctx.from.id));
    return next();
  };
  guarded.use(conversations({ storage: dbStorage(deps.asyncDb, "conversation:"), plugins: [dialogApi, dialogUser, i18n] as never[] }));
  // /start and /cancel must run before any conversation can swallow the update
  guarded.use(startFeature);
  for (const c of CONVERSATIONS) guarded.use(c);
  guarded.use(menus);
  for (const feature of FEATURES) guarded.use(feature);
  guarded.use(unhandledFeature);
  return bot;
}
