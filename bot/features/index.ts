import type { Composer } from "grammy";
import type { BotContext } from "../context";
import { linksFeature } from "./links";

/**
 * Feature composers in registration order. Each feature file exports one Composer; add it here.
 * The `unhandled` feature (registered by bot.ts) always comes last.
 */
export const FEATURES: Composer<BotContext>[] = [linksFeature];
