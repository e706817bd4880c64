import { Composer } from "grammy";
import type { BotContext } from "../context";
import { act, open } from "../menus/nav";
import { guideScreen, startNewTracker, trackerScreen, trackersScreen } from "../menus/tracking";

/**
 * Keyword tracking in the bot: /track (the plan limit is checked before the first question),
 * /trackers, /trackguide and t.me/<bot>?start=tracker_<id>; the screens are in bot/menus/tracking.ts.
 */
export const trackingFeature = new Composer<BotContext>();
const priv = trackingFeature.chatType("private");

priv.command("track", (ctx) => act(ctx, () => startNewTracker(ctx), "trackers"));
priv.command("trackers", (ctx) => open(ctx, trackersScreen, [0]));
priv.command("trackguide", (ctx) => open(ctx, guideScreen, []));
priv.command("start", async (ctx, next) => {
  const m = /^tracker_(\d+)$/.exec(ctx.match);
  if (!m) return next();
  await act(ctx, () => open(ctx, trackerScreen, [Number(m[1])]), "trackers");
});
