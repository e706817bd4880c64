/**
 * One placement (screen `placement`): where and when it ran, its price, and the funnel from the ad
 * post's views to the subscribers who stayed, with what each step cost; its links and invites; and
 * its actions: the views typed by hand, the post's URL, delete (confirmed once).
 */
import type { BotContext } from "../context";
import { write } from "../audited";
import { may, mayChange } from "../workspace";
import { date, l, localeOf, num } from "../i18n";
import { act, back, buttons, createScreen, idOf, open, payload, screenAt, type Screen } from "./nav";
import { deletePlacement, getPlacement, type Placement } from "../../core/placements/placements";
import { money } from "../../core/placements/table";
import { venueLabel } from "../../core/placements/venue";
import { conversionLines, roasLine } from "./conversion-lines";
import { postbackButton, postbackCount } from "./postbacks";

export const PLACEMENT_OPTION = "placement-option";
/** The options a placement's screen asks for in one answer, by position (the conversation's argument). */
export const PLACEMENT_OPTIONS = ["views", "post_url", "cost", "publish_at", "name", "notes"] as const;

const esc = (s: string) => Bun.escapeHTML(s);
const pct = (ctx: BotContext, r: number | null) =>
  r === null ? "—" : new Intl.NumberFormat(localeOf(ctx), { style: "percent", maximumFractionDigits: 0 }).format(r);

/** The funnel from views to who stayed, one step a line, each with what it cost. */
function funnel(ctx: BotContext, p: Placement): string[] {
  const s = p.stats;
  const lang = localeOf(ctx);
  const cost = (n: number | null) => (n === null || !p.cost ? "—" : money(lang, n, p.cost.currency));
  const stayed = (k: "h24" | "d7" | "d30") =>
    s.stayed[k].eligible
      ? ctx.t("ads-stayed-of", {
          stayed: num(ctx, s.stayed[k].stayed),
          of: num(ctx, s.stayed[k].eligible),
          rate: pct(ctx, s.stayed[k].rate),
        })
      : "—";
  return [
    ctx.t("ads-funnel-views", { views: s.views === null ? "—" : num(ctx, s.views), cpm: cost(s.cpm) }),
    ctx.t("ads-funnel-clicks", { clicks: num(ctx, s.clicks), unique: num(ctx, s.unique_clicks), cpc: cost(s.cpc) }),
    ctx.t("ads-funnel-joins", { joins: num(ctx, s.joins), leaves: num(ctx, s.leaves), perJoin: cost(s.cost_per_join) }),
    ctx.t("ads-funnel-stayed", { day: stayed("h24"), week: stayed("d7"), month: stayed("d30") }),
    ctx.t("ads-funnel-retained", { perStayed: cost(s.cost_per_retained) }),
  ];
}

/** The placement for the screen's id, read once per draw. */
const placementOf = (ctx: BotContext, ids: number[]) => getPlacement(ctx.deps, ctx.owner.id, ids[0] ?? 0);

/** The placement's text. */
function placementText(ctx: BotContext, p: Placement): string {
  const lang = localeOf(ctx);
  return [
    `📢 <b>${esc(p.name)}</b>`,
    ctx.t("ads-venue", { venue: esc(venueLabel(p.venue)) }),
    p.publish_at ? ctx.t("ads-published", { date: date(ctx, p.publish_at) }) : "",
    ctx.t("ads-price", { price: p.cost ? money(lang, p.cost.amount, p.cost.currency) : ctx.t("ads-no-price") }),
    p.post_url ? ctx.t("ads-post", { url: esc(p.post_url) }) : ctx.t("ads-post-none"),
    p.notes ? ctx.t("ads-notes", { notes: esc(p.notes) }) : "",
    "",
    ...funnel(ctx, p),
    ...conversionLines(ctx, p.stats.conversions, p.stats.unique_clicks),
    roasLine(ctx, p.stats.roas) ?? "",
    "",
    ctx.t("ads-bound", { links: p.links.length, invites: p.invites.length }),
    ...p.links.slice(0, 10).map((x) => `• <code>${esc(x.trackingUrl)}</code> → ${esc(x.original_url)}`),
    ...p.invites.slice(0, 10).map((x) => `• <code>${esc(x.invite_link)}</code> (${esc(x.name)})`),
  ]
    .filter((line, i, all) => line !== "" || (i > 0 && all[i - 1] !== ""))
    .join("\n");
}

/** The screen's model, read once per draw: the placement and (for an editor, who gets the 📮 button) how many postbacks it has. */
async function screenOf(ctx: BotContext, ids: number[]) {
  const p = await placementOf(ctx, ids);
  return { ...p, postbacks: may(ctx) ? await postbackCount(ctx, 2, p.id) : 0 };
}

export const placementScreen = createScreen("placement", 1, { load: screenOf, body: placementText });

const deleteScreen = createScreen("placement-delete", 1, {
  load: placementOf,
  body: (ctx, p) => ctx.t("ads-delete-confirm", { name: esc(p.name) }),
});

buttons(placementScreen, (ctx, range, p) => {
  // a viewer reads the placement: the buttons that change it are for editors and up
  if (!may(ctx)) {
    if (p.post_url) range.url(ctx.t("ads-open-post"), p.post_url).row();
    return;
  }
  // the options three to a row
  PLACEMENT_OPTIONS.forEach((option, i) => {
    range.text({ text: ctx.t(`ads-set-${option}`), payload: payload(placementScreen) }, (c) =>
      act(c, () => c.conversation.enter(PLACEMENT_OPTION, idOf(c), i), "ads"),
    );
    if (i % 3 === 2) range.row();
  });
  range.row();
  postbackButton(range, placementScreen, 2, p.id, p.postbacks);
  range.row();
  if (p.post_url) range.url(ctx.t("ads-open-post"), p.post_url);
  range.text({ text: l("ads-delete"), payload: payload(placementScreen) }, (c) => act(c, () => open(c, deleteScreen, [idOf(c)]), "ads"));
  range.row();
});
back(placementScreen, l("ads-back"), "ads", () => [0, 0]);

deleteScreen.text({ text: l("ads-delete-yes"), payload: payload(deleteScreen) }, (ctx) =>
  act(
    ctx,
    async () => {
      mayChange(ctx);
      await write(ctx, deletePlacement, idOf(ctx));
      await open(ctx, screenAt("ads"), [0, 0], ctx.t("ads-deleted"));
    },
    "ads",
  ),
);
back(deleteScreen, l("tracker-keep"), "placement", (c) => [idOf(c)]);

/** The placement's own screens under it. */
export function registerPlacement(screen: Screen) {
  screen.register(deleteScreen);
}
