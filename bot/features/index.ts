import type { Composer } from "grammy";
import type { BotContext } from "../context";
import { analyticsCardButtons, analyticsFeature } from "./analytics";
import { linksFeature } from "./links";
import { secureFeature } from "./secure";
import { settingsFeature } from "./settings";
import { trackingFeature } from "./tracking";
import { trackingSourcesFeature } from "./tracking-sources";
import { webhookCardButtons, webhooksFeature } from "./webhooks";
import { LINK_CARD_EXTRAS } from "../menus/link-card";
import type { LinkDetails } from "../../core/links/views";

/**
 * Feature composers in registration order. Each feature file exports one Composer; add it here.
 * bot.ts registers `startFeature` (/start, /help, /cancel) before these and `unhandledFeature` after them.
 * Links takes pasted URLs before the secure feature, which offers other free text and media for storage.
 */
export const FEATURES: Composer<BotContext>[] = [
  trackingSourcesFeature,
  settingsFeature,
  linksFeature,
  analyticsFeature,
  webhooksFeature,
  trackingFeature,
  secureFeature,
];

const webhookState = (l: LinkDetails) => ({ id: l.id, webhookUrl: l.webhook_url, webhookEnabled: l.webhook_enabled, webhookFailures: l.webhook_failures });

/** The link card's extra rows: analytics (one row), then each webhook button on its own row. */
LINK_CARD_EXTRAS.push(
  analyticsCardButtons,
  ...[0, 1, 2].map((i) => (l: LinkDetails) => webhookCardButtons(webhookState(l)).slice(i, i + 1)),
);
