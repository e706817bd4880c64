/**
 * Postbacks in the bot, modelled on the link webhook's screen: the list of one link's, one
 * placement's or the whole account's postbacks (screen `postbacks`, drawn for a scope and its id),
 * one postback (`postback`: its URL, events, recent deliveries; test, log, delete), its delivery log
 * (`postback-log`) and the delete confirmation (`postback-delete`). A new postback is a dialog
 * (bot/conversations/postbacks.ts) entered from a card's 📮 Postback button or the list.
 */
import type { MenuRange } from "@grammyjs/menu";
import type { BotContext } from "../context";
import { date, l } from "../i18n";
import { deliveryProblem, targetProblem } from "../target-problem";
import { act, buttons, createScreen, go, idOf, itemOf, open, payload, type Screen } from "./nav";
import {
  deletePostback,
  getPostback,
  listPostbacks,
  postbackDeliveries,
  testPostback,
  type PostbackDeliveryView,
  type PostbackTestResult,
  type PostbackView as Postback,
} from "../../core/conversions/postbacks";
import { getLink } from "../../core/links/links";
import { write } from "../audited";
import { mayChange, writes } from "../workspace";
import { getPlacement } from "../../core/placements/placements";
import { eventName } from "./conversion-lines";

/** The conversation that makes a postback, entered with a scope's position and id. */
export const NEW_POSTBACK = "new-postback";

const esc = (s: string) => Bun.escapeHTML(s);
const STATUS: Record<string, string> = { pending: "⏳", sending: "📤", done: "✅", failed: "❌", cancelled: "✖️" };
/** Deliveries shown on a postback's screen; the log shows more. */
const RECENT = 5;
const LOG = 20;

/** A scope's position and id: [0, 0] the account, [1, linkId], [2, placementId]. */
const scopeOf = (p: Pick<Postback, "link_id" | "placement_id">): [number, number] =>
  p.link_id ? [1, p.link_id] : p.placement_id ? [2, p.placement_id] : [0, 0];

/** The account's postbacks of a scope (every postback for the account's list), newest first. */
async function postbacksOf(ctx: BotContext, kind: number, id: number): Promise<Postback[]> {
  const all = await listPostbacks(ctx.deps, ctx.owner.id);
  return kind === 1 ? all.filter((p) => p.link_id === id) : kind === 2 ? all.filter((p) => p.placement_id === id) : all;
}

/** What a postback is for, in words: a link by its title or code, a placement by its name, or everything. */
export async function scopeName(ctx: BotContext, kind: number, id: number): Promise<string> {
  if (kind === 1) {
    const link = await getLink(ctx.deps, ctx.owner.id, id);
    return ctx.t("pb-for-link", { name: esc(link.title ?? link.code) });
  }
  if (kind === 2) return ctx.t("pb-for-placement", { name: esc((await getPlacement(ctx.deps, ctx.owner.id, id)).name) });
  return ctx.t("pb-for-account");
}

/** Where a postback sends: its method and URL, or the Meta pixel. */
function targetOf(ctx: BotContext, p: Postback): string {
  return p.kind === "meta" ? ctx.t("pb-target-meta", { pixel: esc(p.pixel_id ?? "") }) : `${p.method} <code>${esc(p.url ?? "")}</code>`;
}

const events = (ctx: BotContext, p: Postback) => p.events.map((e) => eventName(ctx, e)).join(", ");
/** A short name for a button: the receiver's host (and path), or Meta. */
const shortName = (p: Postback) => {
  if (p.kind === "meta" || !p.url) return "Meta";
  const host = p.url.replace(/^https?:\/\//, "").split(/[?#]/)[0]!;
  return host.length > 32 ? `${host.slice(0, 31)}…` : host;
};

/** The list's model: the scope, its postbacks (20 at most shown), each with the name of what it is for on the account's list. */
async function listModel(ctx: BotContext, [kind = 0, id = 0]: number[]) {
  const list = (await postbacksOf(ctx, kind, id)).slice(0, 20);
  const whose = await Promise.all(
    list.map(async (p) => {
      const [k, x] = scopeOf(p);
      return kind === 0 && k ? ` · ${await scopeName(ctx, k, x).catch(() => "")}` : "";
    }),
  );
  return { kind, id, scope: await scopeName(ctx, kind, id), list, whose };
}

const postbacksScreen = createScreen("postbacks", 2, {
  load: listModel,
  body: (ctx, { scope, list, whose }) => {
    const head = ctx.t("pb-list-title", { scope });
    if (!list.length) return `${head}\n\n${ctx.t("pb-list-none")}`;
    const lines = list.map((p, i) => `${i + 1}. ${targetOf(ctx, p)}\n    ${ctx.t("pb-events", { events: events(ctx, p) })}${whose[i]}`);
    return [head, "", ...lines].join("\n");
  },
});

/** The back button of a scope's list: to Settings, the link's card or the placement. */
function backTo(range: MenuRange<BotContext>, from: Screen, kind: number, id: number) {
  if (kind === 1) go(range, from, l("stats-back"), "link", () => [id]);
  else if (kind === 2) go(range, from, l("pb-back-placement"), "placement", () => [id]);
  else go(range, from, l("settings-back"), "settings", () => []);
}

buttons(postbacksScreen, (ctx, range, { kind, id, list }) => {
  // a viewer reads the postbacks and their deliveries; testing, adding and deleting are for editors and up
  const w = writes(ctx, range);
  list.forEach((p, i) => {
    go(range, postbacksScreen, `📮 ${i + 1}. ${shortName(p)}`, "postback", (c) => [itemOf(c, postbacksScreen)], p.id);
    w.text({ text: l("pb-test-short"), payload: payload(postbacksScreen, p.id) }, (c) =>
      act(c, () => sendTest(c, itemOf(c, postbacksScreen)), "postbacks"),
    );
    go(w, postbacksScreen, "🗑", "postback-delete", (c) => [itemOf(c, postbacksScreen), idOf(c, 0), idOf(c, 1)], p.id);
    range.row();
  });
  w.text({ text: l("pb-new"), payload: payload(postbacksScreen) }, (c) =>
    act(c, () => c.conversation.enter(NEW_POSTBACK, idOf(c, 0), idOf(c, 1))),
  );
  if (kind === 0) go(range, postbacksScreen, l("pb-keys"), "postback-keys", () => []);
  range.row();
  backTo(range, postbacksScreen, kind, id);
});

/**
 * Sends a test delivery of postback `id` and tells the user what the receiver answered. The receiver
 * may take up to the timeout: the answer comes in the background so other updates are not held up.
 */
export async function sendTest(ctx: BotContext, id: number): Promise<void> {
  mayChange(ctx);
  const p = await getPostback(ctx.deps, ctx.owner.id, id);
  await ctx.reply(ctx.t("pb-test-sending", { target: targetOf(ctx, p) }), {
    link_preview_options: { is_disabled: true },
  });
  void testPostback(ctx.deps, ctx.owner.id, id)
    .then((r) => ctx.reply(testAnswer(ctx, r), { link_preview_options: { is_disabled: true } }))
    .catch((e) => ctx.deps.log.error(`bot: test postback ${id} failed`, e));
}

/** The receiver's answer to a test, in words: its status and the start of what it said, or why it could not be reached. */
function testAnswer(ctx: BotContext, r: PostbackTestResult): string {
  const body = r.body?.trim() ? ctx.t("pb-test-body", { body: esc(r.body.trim().slice(0, 200)) }) : ctx.t("pb-test-no-body");
  if (r.ok) return ctx.t("pb-test-ok", { status: String(r.status), body });
  if (r.status) return ctx.t("pb-test-refused", { status: String(r.status), body });
  return ctx.t("pb-test-unreachable", { error: esc(targetProblem(ctx, r)) });
}

/** One delivery as a line: state, time, event, the receiver's status or the error. */
function deliveryLine(ctx: BotContext, d: PostbackDeliveryView): string {
  const answer = d.last_error ? ` · ${esc(deliveryProblem(ctx, d.last_error).slice(0, 80))}` : "";
  const tries = d.attempts > 1 ? ` · ${ctx.t("pb-attempts", { count: d.attempts })}` : "";
  return `${STATUS[d.status] ?? "•"} ${date(ctx, d.created_at, true)} · ${d.event ? eventName(ctx, d.event) : "—"}${answer}${tries}`;
}

/** A postback, its last deliveries and the name of what it is for, read once per draw. */
export const postbackScreen = createScreen("postback", 1, {
  load: async (ctx, [pid = 0]) => {
    const p = await getPostback(ctx.deps, ctx.owner.id, pid);
    const recent = await postbackDeliveries(ctx.deps, ctx.owner.id, p.id, { limit: RECENT });
    const [kind, id] = scopeOf(p);
    return { p, recent, kind, id, scope: await scopeName(ctx, kind, id) };
  },
  body: (ctx, { p, recent, scope }) =>
    [
      ctx.t("pb-title", { scope }),
      targetOf(ctx, p),
      ctx.t("pb-events", { events: events(ctx, p) }),
      p.kind === "meta" ? "" : ctx.t("pb-signed"),
      "",
      ctx.t(recent.length ? "pb-recent" : "pb-no-deliveries"),
      ...recent.map((d) => deliveryLine(ctx, d)),
    ]
      .filter((line, i, all) => line !== "" || all[i - 1] !== "")
      .join("\n"),
});

buttons(postbackScreen, (ctx, range, { kind, id }) => {
  const w = writes(ctx, range);
  w.text({ text: l("pb-test"), payload: payload(postbackScreen) }, (c) => act(c, () => sendTest(c, idOf(c)), "postbacks"));
  go(range, postbackScreen, l("pb-log"), "postback-log", (c) => [idOf(c)]);
  range.row();
  go(w, postbackScreen, l("pb-delete"), "postback-delete", (c) => [idOf(c), kind, id]);
  go(range, postbackScreen, l("pb-back-list"), "postbacks", () => [kind, id]);
});

const postbackLogScreen = createScreen("postback-log", 1, {
  load: async (ctx, [pid = 0]) => {
    const p = await getPostback(ctx.deps, ctx.owner.id, pid);
    return { p, log: await postbackDeliveries(ctx.deps, ctx.owner.id, p.id, { limit: LOG }) };
  },
  body: (ctx, { p, log }) =>
    [
      ctx.t("pb-log-title", { target: targetOf(ctx, p) }),
      "",
      ...(log.length ? log.map((d) => deliveryLine(ctx, d)) : [ctx.t("pb-no-deliveries")]),
    ].join("\n"),
});
go(postbackLogScreen, postbackLogScreen, l("pb-back-postback"), "postback", (c) => [idOf(c)]);

/** The delete confirmation, drawn for the postback and the list to go back to (its scope's, or the account's where 🗑 was tapped). */
const postbackDeleteScreen = createScreen("postback-delete", 3, {
  load: (ctx, [pid = 0]) => getPostback(ctx.deps, ctx.owner.id, pid),
  body: (ctx, p) => ctx.t("pb-delete-confirm", { target: targetOf(ctx, p) }),
});
// drawn from the model: a postback gone meanwhile draws no buttons, and a press on the old copy is outdated
buttons(postbackDeleteScreen, (ctx, range) => {
  const list = [idOf(ctx, 1), idOf(ctx, 2)];
  range.text({ text: l("pb-delete-yes"), payload: payload(postbackDeleteScreen) }, (c) =>
    act(
      c,
      async () => {
        mayChange(c);
        await write(c, deletePostback, idOf(c));
        await open(c, postbacksScreen, [idOf(c, 1), idOf(c, 2)], c.t("pb-deleted"));
      },
      "postbacks",
    ),
  );
  go(range, postbackDeleteScreen, l("item-keep"), "postbacks", () => list);
});

/** The postback screens under `parent` (Settings), in their tree. */
export function registerPostbacks(parent: Screen) {
  parent.register(postbacksScreen);
  postbacksScreen.register([postbackScreen, postbackDeleteScreen]);
  postbackScreen.register(postbackLogScreen);
}

/** How many postbacks a link (kind 1) or a placement (kind 2) has: part of its card's model, for the 📮 button. */
export async function postbackCount(ctx: BotContext, kind: 1 | 2, id: number): Promise<number> {
  return (await postbacksOf(ctx, kind, id)).length;
}

/** The 📮 button of a link's or placement's card (`count` from its model): straight into a new postback when it has none, else its list. */
export function postbackButton(range: MenuRange<BotContext>, from: Screen, kind: 1 | 2, id: number, count: number) {
  if (count) go(range, from, l("pb-card-some", { count }), "postbacks", () => [kind, id]);
  else range.text({ text: l("pb-card-none"), payload: payload(from) }, (c) => act(c, () => c.conversation.enter(NEW_POSTBACK, kind, id)));
}
