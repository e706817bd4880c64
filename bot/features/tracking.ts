import { Composer } from "grammy";
import type { BotContext } from "../context";
import { act, open } from "../menus/nav";
import { markMatchesRead, markMatchRangeRead } from "../../core/tracking/matches";
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
// deep links of match notifications: open a tracker, the list, or mark matches read
priv.command("start", async (ctx, next) => {
  const p = ctx.match;
  const tracker = /^tracker_(\d+)$/.exec(p);
  const one = /^read_(\d+)$/.exec(p);
  const range = /^readr_(\d+)-(\d+)$/.exec(p);
  if (tracker) return act(ctx, () => open(ctx, trackerScreen, [Number(tracker[1])]), "trackers");
  if (p === "trackers") return open(ctx, trackersScreen, [0]);
  if (one) {
    const n = await markMatchesRead(ctx.deps, ctx.user!.id, [Number(one[1])]);
    return open(ctx, trackersScreen, [0], ctx.t(n ? "match-marked" : "match-already-read"));
  }
  if (range) {
    const n = await markMatchRangeRead(ctx.deps, ctx.user!.id, Number(range[1]), Number(range[2]));
    return open(ctx, trackersScreen, [0], ctx.t("matches-marked", { count: n }));
  }
  await next();
});
