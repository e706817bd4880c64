/**
 * The Ads table as people read it (the bot's /ads, its exports and the daily report's line): money
 * in the reader's language, the direction each order of the table takes, and one row of cells per
 * placement.
 */
import type { Language } from "../i18n/translate";
import { t } from "../i18n/translate";
import { cellAt } from "../i18n/wall";
import type { Placement } from "./placements";

/**
 * An amount in `currency` as `lang` writes it: "5 000 ₽", "714,29 ₽" in Russian, "$50", "₽714.29"
 * in English; whole amounts without decimals, others with two.
 */
export function money(lang: Language, amount: number, currency: string): string {
  const whole = Number.isInteger(Math.round(amount * 100) / 100) && Math.round(amount * 100) % 100 === 0;
  try {
    return new Intl.NumberFormat(lang, {
      style: "currency",
      currency,
      currencyDisplay: "narrowSymbol",
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: whole ? 0 : 2,
    }).format(amount);
  } catch {
    // a code Intl does not know: the number and the code
    return `${new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(amount)} ${currency}`;
  }
}

/**
 * The direction a table order takes unless told: costs cheapest first, counts (and anything else)
 * most first. listPlacements sorts by it, with placements without the figure last and amounts of
 * money compared only within one currency; the table keeps that order as it comes.
 */
export const placementOrder = (key: string): "asc" | "desc" => (/^(cost|cpm|cpc)/.test(key) ? "asc" : "desc");

/** The table's columns, named in the language files as `ads-column-<name>`. */
const COLUMNS = [
  "name",
  "venue",
  "published",
  "price",
  "currency",
  "views",
  "clicks",
  "unique-clicks",
  "joins",
  "leaves",
  "stayed-24h",
  "stayed-7d",
  "stayed-30d",
  "cpm",
  "cpc",
  "per-join",
  "per-stayed",
  "post",
] as const;

export const tableColumns = (lang: Language) => COLUMNS.map((c) => t(lang, `ads-column-${c}`));

/** Which columns hold figures (number cells in a spreadsheet). */
export const NUMERIC_COLUMNS: readonly boolean[] = COLUMNS.map((c) => !["name", "venue", "published", "currency", "post"].includes(c));

/** Numbers in a file: a dot for decimals, two places for money, so a spreadsheet reads them as numbers. */
const cell = (n: number | null | undefined, money = false) =>
  n === null || n === undefined ? "" : money ? (Math.round(n * 100) / 100).toFixed(2) : String(n);

// a channel as its t.me address: a cell starting with @ would be guarded against formulas (a leading apostrophe)
const venueOf = (p: Placement) => (p.venue.kind === "telegram" ? `t.me/${p.venue.username}` : p.venue.title);

/** One placement as the table's cells, in the columns' order; the publication's day as it is in `zone`. */
export function tableCells(p: Placement, zone = "UTC"): string[] {
  const s = p.stats;
  return [
    p.name,
    venueOf(p),
    p.publish_at ? cellAt(zone, new Date(p.publish_at)).slice(0, 10) : "",
    p.cost ? cell(p.cost.amount, true) : "",
    p.cost?.currency ?? "",
    cell(s.views),
    cell(s.clicks),
    cell(s.unique_clicks),
    cell(s.joins),
    cell(s.leaves),
    cell(s.stayed.h24.stayed),
    cell(s.stayed.d7.stayed),
    cell(s.stayed.d30.stayed),
    cell(s.cpm, true),
    cell(s.cpc, true),
    cell(s.cost_per_join, true),
    cell(s.cost_per_retained, true),
    p.post_url ?? "",
  ];
}
