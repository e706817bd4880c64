import type { Middleware } from "grammy";
import type { UpdateContext } from "../context";
import { requireUser } from "../require-user";
import { adsFeature } from "./ads";
import { analyticsFeature } from "./analytics";
import { channelsFeature } from "./channels";
import { deepLinksFeature } from "./deep-links";
import { inlineFeature } from "./inline";
import { linksFeature } from "./links";
import { secureFeature } from "./secure";
import { settingsFeature } from "./settings";
import { teamChatFeature } from "./team-chat";
import { trackingFeature } from "./tracking";
import { trackingSourcesFeature } from "./tracking-sources";

/**
 * Feature composers in registration order, the bot's default (`createBot(deps, { features })` takes
 * another list). Each feature file exports one Composer; add it here.
 * bot.ts registers `startFeature` (/start, /help, /cancel), the conversations and the menus before
 * these and `unhandledFeature` after them. Links takes pasted URLs before the secure feature, which
 * offers other free text and media for storage.
 */
export const FEATURES: readonly Middleware<UpdateContext>[] = [
  trackingSourcesFeature,
  deepLinksFeature,
  channelsFeature,
  teamChatFeature,
  inlineFeature,
  // what a person does in a private chat: ctx.user is set there
  requireUser(settingsFeature, adsFeature, linksFeature, analyticsFeature, trackingFeature, secureFeature),
];
