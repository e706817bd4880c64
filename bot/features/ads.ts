import { Composer } from "grammy";
import type { BotContext } from "../context";
import { open } from "../menus/nav";
import { adsScreen } from "../menus/ads";

/** /ads opens the Ads table (bot/menus/ads.ts): last 30 days, cheapest subscriber who stayed first. */
export const adsFeature = new Composer<BotContext>();
adsFeature.chatType("private").command("ads", (ctx) => open(ctx, adsScreen, [0, 0]));
