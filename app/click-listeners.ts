import type { ClickListener } from "../core/clicks/listeners";
import { rollupClicks } from "../core/analytics/rollup";
import { clickWebhookHook } from "../core/webhooks/click-hook";
import { clickPostbackHook } from "../core/conversions/click-hook";

/**
 * Everything a stored batch of clicks feeds, in order, in the batch's own transaction: the analytics
 * roll-ups, the click webhooks and the click postbacks. The composition root lists them here and hands the table to the
 * click writer (both the request thread's and the writer thread's), so core/clicks imports no feature
 * and a feature that reacts to clicks adds one line here.
 */
export const CLICK_LISTENERS: readonly ClickListener[] = [rollupClicks, clickWebhookHook, clickPostbackHook];
