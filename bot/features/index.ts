import type { Composer } from "grammy";
import type { BotContext } from "../context";
import { secureFeature } from "./secure";
import { settingsFeature } from "./settings";
import { webhooksFeature } from "./webhooks";

/**
 * Feature composers in registration order. Each feature file exports one Composer; add it here.
 * bot.ts registers `startFeature` (/start, /help, /cancel) before these and `unhandledFeature` after them.
 */
export const FEATURES: Composer<BotContext>[] = [settingsFeature, webhooksFeature, secureFeature];
