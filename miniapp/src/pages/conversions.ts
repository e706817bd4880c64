/**
 * Conversions on the analytics pages of a link, an invite and a placement: the count and its rate
 * from unique clicks, the value in each currency (and ROAS on a placement), the count of each event;
 * a clear line when there are none (never "0 ₽"), with where conversions come from.
 */
import { html } from "../ui";
import { fmtNumber, t } from "../i18n";
import { linkTo } from "../router";
import { money } from "../money";
import type { ConversionStatsModel } from "../../../api/conversions/model";

/** What the API gives of conversions: count, value by currency, count by event. */
export type ConversionFigures = (typeof ConversionStatsModel)["static"];

/** Event names the app says in words (`app-conv-event-<name>`); any other as the advertiser wrote it. */
const KNOWN_EVENTS = ["click", "join_request", "join", "leave", "start", "lead", "registration", "purchase", "deposit", "subscribe"];

/** An event's name for the reader. */
export const eventName = (event: string) =>
  event === "*" ? t("app-conv-event-any") : KNOWN_EVENTS.includes(event) ? t(`app-conv-event-${event}`) : event;

/** The value in each currency, biggest first ("45 000 ₽ + 120 $"); "" when no conversion carried a value. */
export function valueText(value: Record<string, number>): string {
  return Object.entries(value)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([currency, n]) => money(n, currency))
    .join(" + ");
}

/** A rate as a percentage (one decimal under 10 %). */
const rate = (share: number) => fmtNumber(share, { style: "percent", maximumFractionDigits: share < 0.1 ? 1 : 0 });

/**
 * The Conversions card of a link's, an invite's or a placement's figures (from its stats): `unique`
 * unique clicks give the rate; `roas` (a placement's) is shown when known; `postbacks` is the page of
 * its postbacks.
 */
export function Conversions({
  figures: f,
  unique,
  roas,
  postbacks,
}: {
  figures: ConversionFigures;
  unique: number;
  roas?: number | null;
  postbacks?: string;
}) {
  const value = valueText(f.value);
  const events = Object.entries(f.by_event)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const more =
    postbacks && html`<p class="hint"><a href=${`/app${postbacks}`} onClick=${linkTo(postbacks)}>${t("app-conv-postbacks-link")}</a></p>`;
  if (!f.count)
    return html`<div class="card" data-testid="conversions"><h2>${t("app-conv-title")}</h2>
      <p class="hint" data-testid="conversions-none">${t("app-conv-none")}</p>${more}</div>`;
  return html`<div class="card" data-testid="conversions"><h2>${t("app-conv-title")}</h2>
    <div class="stat-cards">
      <div class="stat"><strong data-stat="conversions">${fmtNumber(f.count)}</strong><span>${t("app-conv-count", { count: f.count })}</span></div>
      ${unique > 0 && html`<div class="stat"><strong data-stat="conversion-rate">${rate(f.count / unique)}</strong><span>${t("app-conv-rate")}</span></div>`}
      ${value && html`<div class="stat"><strong data-stat="conversion-value">${value}</strong><span>${t("app-conv-value")}</span></div>`}
      ${roas !== null && roas !== undefined && html`<div class="stat"><strong data-stat="roas">${fmtNumber(roas, { style: "percent", maximumFractionDigits: 0 })}</strong><span>${t("app-conv-roas")}</span></div>`}
    </div>
    ${events.length > 0 && html`<ul class="list compact" data-testid="conversion-events">${events.map(([e, n]) => html`<li class="row-line"><span>${eventName(e)}</span><strong>${fmtNumber(n)}</strong></li>`)}</ul>`}
    ${more}</div>`;
}
