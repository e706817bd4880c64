import type { Composer } from "grammy";
import type { BotContext } from "../context";
import { analyticsFeature } from "./analytics";
import { channelsFeature } from "./channels";
import { deepLinksFeature } from "./deep-links";
import { inlineFeature } from "./inline";
import { linksFeature } from "./links";
import { secureFeature } from "./secure";
import { settingsFeature } from "./settings";
import { trackingFeature } from "./tracking";
import { trackingSourcesFeature } from "./tracking-sources";

/**
 * Feature composers in registration order. Each feature file exports one Composer; add it here.
 * bot.ts registers `startFeature` (/start, /help, /cancel), the conversations and the menus before
 * these and `unhandledFeature` after them. Links takes pasted URLs before the secure feature, which
 * offers other free text and media for storage.
 */
export const FEATURES: Composer<BotContext>[] = [
  trackingSourcesFeature,
  deepLinksFeature,
  channelsFeature,
  inlineFeature,
  settingsFeature,
  linksFeature,
  analyticsFeature,
  trackingFeature,
  secureFeature,
];
