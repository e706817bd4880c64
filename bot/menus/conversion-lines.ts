/**
 * What the link, invite and placement cards say of conversions: one clear line when there are none
 * ("🎯 Conversions: none yet", never "0 ₽"), else the count with its rate from unique clicks, the
 * value in each currency and the count of each event. Events the service knows are named in the
 * reader's language; an advertiser's own event names are shown as code.
 */
import type { I18nFlavor } from "@grammyjs/i18n";
import { money } from "../../core/placements/table";
import { ANY_EVENT } from "../../core/conversions/events";
import { localeOf, num } from "../i18n";
import type { BotContext } from "../context";

/** The figures a card shows: the conversions' count, value by currency and count by event. */
export interface ConversionFigures {
  count: number;
  value: Record<string, number>;
  by_event: Record<string, number>;
}

type Reader = I18nFlavor & Parameters<typeof localeOf>[0];

/** Event names the bot says in words (`conv-event-<name>`); any other is shown as the advertiser wrote it. */
const EVENT_KEYS: Record<string, string> = {
  click: "conv-event-click",
  join_request: "conv-event-join_request",
  join: "conv-event-join",
  leave: "conv-event-leave",
  start: "conv-event-start",
  lead: "conv-event-lead",
  registration: "conv-event-registration",
  signup: "conv-event-registration",
  purchase: "conv-event-purchase",
  sale: "conv-event-purchase",
  deposit: "conv-event-deposit",
  subscribe: "conv-event-subscribe",
  [ANY_EVENT]: "conv-event-any",
};

/** An event's name for the reader: in words when the service knows it, else as code. */
export function eventName(ctx: I18nFlavor, event: string): string {
  const key = EVENT_KEYS[event];
  return key ? ctx.t(key) : `<code>${Bun.escapeHTML(event)}</code>`;
}

/** An event's name for a button (plain text): in words when the service knows it, else as written. */
export const eventLabel = (ctx: I18nFlavor, event: string) => (EVENT_KEYS[event] ? ctx.t(EVENT_KEYS[event]) : event);

/** A share as a percentage in the reader's locale ("4.8%", "4,8 %"). */
const percent = (ctx: Reader, share: number) =>
  new Intl.NumberFormat(localeOf(ctx), { style: "percent", maximumFractionDigits: share < 0.1 ? 1 : 0 }).format(share);

/** The value in each currency, biggest first, joined by " + " ("45 000 ₽ + 120 $"); empty when nothing was worth money. */
function valueText(ctx: Reader, value: Record<string, number>): string {
  return Object.entries(value)
    .filter(([, amount]) => amount > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([currency, amount]) => money(localeOf(ctx), amount, currency))
    .join(" + ");
}

/**
 * The card's conversion lines: "none yet" in one line, or the count (with its share of `uniqueClicks`
 * when there were any), the value when some conversion carried one, and the events by count.
 */
export function conversionLines(ctx: Reader, f: ConversionFigures, uniqueClicks: number): string[] {
  if (!f.count) return [ctx.t("conv-card-none")];
  const count = num(ctx, f.count);
  const lines = [
    uniqueClicks > 0
      ? ctx.t("conv-card-count-rate", { count, rate: percent(ctx, f.count / uniqueClicks), unique: num(ctx, uniqueClicks) })
      : ctx.t("conv-card-count", { count }),
  ];
  const value = valueText(ctx, f.value);
  if (value) lines.push(ctx.t("conv-card-value", { value }));
  const events = Object.entries(f.by_event)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (events.length > 1 || (events.length === 1 && events[0]![0] !== "join"))
    lines.push(ctx.t("conv-card-events", { events: events.map(([e, n]) => `${eventName(ctx, e)} ${num(ctx, n)}`).join(" · ") }));
  return lines;
}

/** ROAS of a placement as the card says it ("📈 ROAS 240 %"), or null when it has no price or no value yet. */
export function roasLine(ctx: BotContext, roas: number | null | undefined): string | null {
  if (roas === null || roas === undefined) return null;
  return ctx.t("conv-card-roas", {
    roas: new Intl.NumberFormat(localeOf(ctx), { style: "percent", maximumFractionDigits: 0 }).format(roas),
  });
}
