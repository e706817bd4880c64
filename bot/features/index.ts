import type { Composer } from "grammy";
import type { BotContext } from "../context";
import { analyticsFeature } from "./analytics";
import { secureFeature } from "./secure";
import { settingsFeature } from "./settings";
import { trackingFeature } from "./tracking";
import { trackingSourcesFeature } from "./tracking-sources";
import { webhooksFeature } from "./webhooks";

/**
 * Feature composers in registration order. Each feature file exports one Composer; add it here.
 * bot.ts registers `startFeature` (/start, /help, /cancel) before these and `unhandledFeature` after them.
 * The secure feature offers free text and media for storage, so it comes after the features with commands.
 */
export const FEATURES: Composer<BotContext>[] = [
  trackingSourcesFeature,
  settingsFeature,
  analyticsFeature,
  webhooksFeature,
  trackingFeature,
  secureFeature,
];
