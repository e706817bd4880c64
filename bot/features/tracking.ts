import { Composer } from "grammy";
import type { BotContext } from "../context";
import { act, open } from "../menus/nav";
import { guideScreen, startNewTracker, trackersScreen } from "../menus/tracking";

/**
 * Keyword tracking in the bot: /track, or /track with the keyword (the plan limit is checked before the first question),
 * /trackers and /trackguide; the screens are in bot/menus/tracking.ts (start links and notification
 * buttons: bot/features/deep-links.ts).
 */
export const trackingFeature = new Composer<BotContext>();
const priv = trackingFeature.chatType("private");

priv.command("track", (ctx) => act(ctx, () => startNewTracker(ctx, ctx.match || undefined), "trackers"));
priv.command("trackers", (ctx) => open(ctx, trackersScreen, [0]));
priv.command("trackguide", (ctx) => open(ctx, guideScreen, []));
