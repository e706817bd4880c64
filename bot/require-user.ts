import { Composer, type Middleware } from "grammy";
import type { BotContext, UpdateContext } from "./context";

/** True when the update comes from a registered person (a private chat): the context is a BotContext. */
export const signedIn = (ctx: UpdateContext): ctx is BotContext => ctx.user !== undefined && ctx.owner !== undefined;

/**
 * Middleware that runs `middleware` only for a signed-in person, with the context narrowed once to
 * BotContext (`ctx.user` set); any other update (a channel post, an inline query, a group's button)
 * goes on past it.
 */
export function requireUser(...middleware: Middleware<BotContext>[]): Composer<UpdateContext> {
  const composer = new Composer<UpdateContext>();
  composer.filter(signedIn, ...middleware);
  return composer;
}
