/**
 * Ads (screen `ads`, "📢 Ads" in the main menu and /ads): one line per placement with its price,
 * clicks, joins, who stayed and what each subscriber who stayed cost, for a period, sorted by that
 * cost (or by joins, unique clicks, cost per join); a button per placement opens its screen
 * (bot/menus/ads-placement.ts); CSV and XLSX of the table go to the chat. The screen is drawn for two
 * ids, the period's and the sort's position, so a press re-draws it from the database.
 */
import type { BotContext } from "../context";
import { localeOf, num } from "../i18n";
import { backHome, buttons, createScreen, go, idOf, itemOf, payload, type Screen } from "./nav";
import { say } from "./link-stats";
import { listPlacements, type Placement } from "../../core/placements/placements";
import { exportPlacements } from "../../core/placements/table-export";
import { money, placementOrder } from "../../core/placements/table";
import { placementScreen, registerPlacement } from "./ads-placement";

/** The periods the table offers, by position (the screen's first id). */
const AD_PERIODS = ["30d", "7d", "90d", "all"] as const;
/** The orders the table offers, by position (the screen's second id): cheapest subscriber who stayed first by default. */
const AD_SORTS = ["cost_per_retained", "cost_per_join", "joins", "unique_clicks"] as const;
/** Lines shown (and buttons): the rest is in the exports. */
const SHOWN = 25;

const esc = (s: string) => Bun.escapeHTML(s);
const periodOf = (ctx: BotContext) => AD_PERIODS[idOf(ctx, 0)] ?? AD_PERIODS[0];
const sortOf = (ctx: BotContext) => AD_SORTS[idOf(ctx, 1)] ?? AD_SORTS[0];

/** The table's model: the account's placements for the period asked for, in the order asked for (those without the figure last). */
async function rows(ctx: BotContext, [periodAt = 0, sortAt = 0]: number[]): Promise<Placement[]> {
  const sort = AD_SORTS[sortAt] ?? AD_SORTS[0];
  const period = AD_PERIODS[periodAt] ?? AD_PERIODS[0];
  return listPlacements(ctx.deps, ctx.owner.id, { period, sort, order: placementOrder(sort) });
}

/** One placement's line of the table. */
function line(ctx: BotContext, p: Placement, n: number): string {
  const s = p.stats;
  const lang = localeOf(ctx);
  return ctx.t("ads-line", {
    n,
    name: esc(p.name),
    price: p.cost ? money(lang, p.cost.amount, p.cost.currency) : ctx.t("ads-no-price"),
    clicks: num(ctx, s.unique_clicks),
    joins: num(ctx, s.joins),
    stayed: num(ctx, s.stayed.d7.stayed),
    perStayed: s.cost_per_retained === null || !p.cost ? "—" : money(lang, s.cost_per_retained, p.cost.currency),
  });
}

export const adsScreen = createScreen("ads", 2, {
  load: rows,
  body: (ctx, list) => {
    const head = ctx.t("ads-title", { period: ctx.t(`period-${periodOf(ctx)}`), sort: ctx.t(`ads-sort-${sortOf(ctx)}`) });
    if (!list.length) return `${head}\n\n${ctx.t("ads-none")}`;
    const more = list.length > SHOWN ? ["", ctx.t("ads-more", { count: list.length - SHOWN })] : [];
    return [head, "", ...list.slice(0, SHOWN).map((p, i) => line(ctx, p, i + 1)), ...more, "", ctx.t("ads-legend")].join("\n");
  },
});

buttons(adsScreen, (_ctx, range, all) => {
  const list = all.slice(0, SHOWN);
  list.forEach((p, i) => {
    go(range, adsScreen, `${i + 1}. ${p.name}`, "placement", (x) => [itemOf(x, adsScreen)], p.id);
    if (i % 2 === 1 || i === list.length - 1) range.row();
  });
  // the period and the order: the current one marked, each another in one tap
  AD_PERIODS.forEach((period, i) =>
    go(
      range,
      adsScreen,
      (c) => (periodOf(c) === period ? `• ${c.t(`ads-period-${period}`)} •` : c.t(`ads-period-${period}`)),
      "ads",
      (c) => [i, idOf(c, 1)],
    ),
  );
  range.row();
  AD_SORTS.forEach((sort, i) => {
    go(
      range,
      adsScreen,
      (c) => (sortOf(c) === sort ? `• ${c.t(`ads-by-${sort}`)} •` : c.t(`ads-by-${sort}`)),
      "ads",
      (c) => [idOf(c, 0), i],
    );
    if (i % 2 === 1) range.row();
  });
  if (list.length)
    for (const format of ["csv", "xlsx"] as const)
      range.text({ text: `📤 ${format.toUpperCase()}`, payload: payload(adsScreen) }, (c) =>
        say(c, async () => {
          const sort = sortOf(c);
          await exportPlacements(c.deps, c.owner.id, { format, period: periodOf(c), sort });
        }),
      );
  range.row();
});
backHome(adsScreen);

/** The ads screens under `parent`, in their tree. */
export function registerAds(parent: Screen) {
  parent.register(adsScreen);
  adsScreen.register(placementScreen);
  registerPlacement(placementScreen);
}
