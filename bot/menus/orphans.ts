/**
 * Visits to dead codes (screen `orphans`, under the link list): requests for codes of the user's
 * disabled or deleted links and unknown codes on the user's verified domains, over the last 30 days.
 */
import { orphanVisitsOf } from "../../core/analytics/orphans";
import type { BotContext } from "../context";
import { date, l } from "../i18n";
import { back, createScreen } from "./nav";

const SHOWN = 15;

export const orphansScreen = createScreen("orphans", 0, {
  load: (ctx: BotContext) => orphanVisitsOf(ctx.deps, ctx.owner.id, { period: "30d" }),
  body: (ctx, { total, items }) => {
    if (!total) return ctx.t("orphans-none");
    const lines = items
      .slice(0, SHOWN)
      .map((i) => ctx.t("orphans-item", { code: Bun.escapeHTML(i.code), count: i.count, last: date(ctx, i.lastAt, true) }));
    const more = items.length > SHOWN ? `\n${ctx.t("orphans-more", { count: items.length - SHOWN })}` : "";
    return `${ctx.t("orphans-title", { total })}\n${lines.join("\n")}${more}`;
  },
});
back(orphansScreen, l("card-back"), "links", () => [0, 0]);
