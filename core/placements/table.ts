/**
 * The Ads table as people read it (the bot's /ads, its exports and the daily report's line): money
 * in the reader's language, the orders the table offers (cheapest first for costs, most first for
 * counts, placements without the figure last), and one row of cells per placement.
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

/** The figure a table order sorts by. */
type SortKey = "cost_per_retained" | "cost_per_join" | "cpm" | "cpc" | "joins" | "clicks" | "unique_clicks" | "views";

const FIGURES = new Set<string>(["cost_per_retained", "cost_per_join", "cpm", "cpc", "joins", "clicks", "unique_clicks", "views"]);

const figure = (p: Placement, key: SortKey): number | null => {
  const v = p.stats[key as keyof Placement["stats"]];
  return typeof v === "number" ? v : null;
};

/** How a table order sorts: costs cheapest first, counts most first; without the figure last; ties newest first. */
export function placementSorter(key: string): { order: "asc" | "desc"; compare: (a: Placement, b: Placement) => number } {
  const k = key as SortKey;
  const order = /^(cost|cpm|cpc)/.test(k) ? "asc" : "desc";
  return {
    order,
    compare: (a, b) => {
      if (!FIGURES.has(k)) return 0; // a field listPlacements sorted by (name, cost, …): its order kept
      const x = figure(a, k);
      const y = figure(b, k);
      if (x === null || y === null) return x === y ? b.id - a.id : x === null ? 1 : -1;
      if (x !== y) return order === "asc" ? x - y : y - x;
      return b.id - a.id;
    },
  };
}

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
