/**
 * Channel screens: the list (/channels) → a channel (members, joins and leaves today and in total,
 * its invites, waiting requests) → an invite (its figures, link, options, Revoke). "New invite"
 * asks a name and whether people must ask to join, then each option is one tap and one answer.
 */
import type { BotContext } from "../context";
import { write } from "../audited";
import { may, mayChange, writes } from "../workspace";
import { date, l, localeOf, num, readerOf } from "../i18n";
import { localMidnight } from "../../core/clock";
import { act, back, backHome, buttons, createScreen, go, idOf, itemOf, modelOf, open, payload, type Screen } from "./nav";
import { listChannels, ownedChannel } from "../../core/channels/channels";
import { inviteView, listInvites, ownedInvite, recentInvites, revokeInvite } from "../../core/channels/invites";
import { channelSince, channelStats, inviteStats } from "../../core/channels/stats";
import { placementsOf } from "../../core/tracking/link-watch";
import { placementLine } from "./link-card";
import { approveAllRequests, listRequests, settleRequest } from "../../core/channels/requests";
import { INVITE_OPTIONS } from "./invite-options";
import { exportJoinJournal, sendJoinChart } from "../../core/channels/export";
import { say } from "./link-stats";
import { confirmPowers } from "../../core/channels/powers";
import { AppError } from "../../core/errors";
import { problemText } from "../problem";
import { conversionLines } from "./conversion-lines";

export const NEW_INVITE = "new-invite";
export const INVITE_OPTION = "invite-option";
const esc = (s: string) => Bun.escapeHTML(s);
const uid = (ctx: BotContext) => ctx.owner.id;
const pct = (ctx: BotContext, r: number | null) =>
  r === null ? "—" : new Intl.NumberFormat(localeOf(ctx), { style: "percent" }).format(r);
const money = (ctx: BotContext, n: number | null, currency?: string) =>
  n === null || !currency
    ? "—"
    : `${new Intl.NumberFormat(localeOf(ctx), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)} ${currency}`;

/** Why a join to a public channel may have no invite: said where the figures are. */
const PUBLIC_NOTE = "channel-public-note";

/** The channels and the newest invites, read once per draw. */
export const channelsScreen = createScreen("channels", 0, {
  load: async (ctx) => ({
    channels: await listChannels(ctx.deps, uid(ctx)),
    invites: await recentInvites(ctx.deps, uid(ctx), RECENT_INVITES),
  }),
  body: (ctx, m) => ctx.t(m.channels.length ? "channels-title" : "channels-none"),
});

/** Why the account may not act in the chat now (it no longer runs it, or Telegram cannot confirm it does), or null. */
async function powersRefused(ctx: BotContext, chatId: string): Promise<AppError | null> {
  try {
    await confirmPowers(ctx.deps, uid(ctx), chatId);
    return null;
  } catch (e) {
    if (e instanceof AppError && e.status !== 404) return e;
    throw e;
  }
}

/** A channel's model: the channel, its invites, and (while the account still runs it) its figures and waiting requests. */
async function channelOf(ctx: BotContext, ids: number[]) {
  const c = await ownedChannel(ctx.deps, uid(ctx), ids[0] ?? 0);
  const invites = (await listInvites(ctx.deps, uid(ctx), c.id)).slice(0, 30);
  const refused = await powersRefused(ctx, c.chatId);
  if (refused) return { c, invites, refused } as const;
  const stats = await channelStats(ctx.deps, uid(ctx), c.id);
  // today is the user's: from midnight in their time zone
  const midnight = localMidnight(readerOf(ctx).zone, ctx.deps.clock.now().getTime());
  const today = await channelSince(ctx.deps, uid(ctx), c.id, new Date(midnight));
  const waiting = (await listRequests(ctx.deps, uid(ctx), c.id)).length;
  return { c, invites, refused, stats, today, waiting } as const;
}

export const channelScreen = createScreen("channel", 1, { load: channelOf, body: channelText });

function channelText(ctx: BotContext, m: Awaited<ReturnType<typeof channelOf>>): string {
  const { c } = m;
  if (m.refused)
    return [`📣 <b>${esc(c.title ?? c.chatId)}</b>`, `⚠️ ${esc(problemText(ctx, m.refused))}`, ctx.t("channel-powers-lost")].join("\n");
  const { stats, today, waiting } = m;
  return [
    `📣 <b>${esc(c.title ?? c.chatId)}</b>${c.username ? ` (@${esc(c.username)})` : ""}`,
    ctx.t("channel-members", { count: c.members === null || c.members === undefined ? "—" : num(ctx, c.members) }),
    ctx.t("channel-today", { joins: today.joins, leaves: today.leaves }),
    ctx.t("channel-total", { joins: stats.joins, leaves: stats.leaves, net: stats.net }),
    ctx.t("channel-unattributed", { joins: stats.unattributed.joins, leaves: stats.unattributed.leaves }),
    waiting ? ctx.t("channel-waiting", { count: waiting }) : "",
    !c.botIsAdmin ? ctx.t("channel-not-admin") : !c.canInvite ? ctx.t("channel-cannot-invite") : "",
    c.username ? `\n${ctx.t(PUBLIC_NOTE)}` : "",
  ]
    .filter(Boolean)
    .join("\n");
}

/** An invite's model: the invite, its view and figures, and the posts it was placed in. */
async function inviteOf(ctx: BotContext, ids: number[]) {
  const invite = await ownedInvite(ctx.deps, uid(ctx), ids[0] ?? 0);
  const view = await inviteView(ctx.deps, invite);
  const f = await inviteStats(ctx.deps, uid(ctx), invite.id);
  const placed = await placementsOf(ctx.deps, uid(ctx), { inviteId: invite.id });
  return { invite, view, f, placed };
}

export const inviteScreen = createScreen("invite", 1, { load: inviteOf, body: inviteText });

function inviteText(ctx: BotContext, { invite, view, f, placed }: Awaited<ReturnType<typeof inviteOf>>): string {
  const r = f.retention;
  return [
    `🔗 <b>${esc(invite.name)}</b>${invite.isRevoked ? ` ${ctx.t("invite-revoked-mark")}` : ""}`,
    `<code>${esc(invite.inviteLink)}</code>`,
    view.trackingUrl
      ? ctx.t("invite-tracking", { url: `<code>${esc(view.trackingUrl)}</code>`, clicks: f.clicks, unique: f.unique_clicks })
      : "",
    invite.joinRequest
      ? ctx.t(invite.approve === "auto" ? "invite-requests-auto" : "invite-requests-manual", { pending: view.stats.pending ?? 0 })
      : "",
    invite.expiresAt ? ctx.t("invite-expires", { date: date(ctx, invite.expiresAt, true) }) : "",
    invite.memberLimit ? ctx.t("invite-member-limit", { count: invite.memberLimit }) : "",
    "",
    ctx.t("invite-figures", { joins: f.joins, leaves: f.leaves, net: f.net }),
    placed.posts ? placementLine(ctx, placed) : "",
    f.conversion !== null ? ctx.t("invite-conversion", { percent: pct(ctx, f.conversion) }) : "",
    ...conversionLines(ctx, f.conversions, f.unique_clicks),
    ctx.t("invite-retention", {
      day: pct(ctx, r.h24.rate),
      dayOf: r.h24.eligible,
      week: pct(ctx, r.d7.rate),
      weekOf: r.d7.eligible,
      month: pct(ctx, r.d30.rate),
      monthOf: r.d30.eligible,
    }),
    invite.cost
      ? ctx.t("invite-cost", {
          price: `${num(ctx, invite.cost.amount)} ${invite.cost.currency}`,
          perJoin: money(ctx, f.cost_per_join, invite.cost.currency),
          perStayed: money(ctx, f.cost_per_retained, invite.cost.currency),
        })
      : "",
  ]
    .filter((l, i, all) => l !== "" || (i > 0 && all[i - 1] !== ""))
    .join("\n");
}

const inviteRevoke = createScreen("invite-revoke", 1, {
  load: (ctx, ids) => ownedInvite(ctx.deps, uid(ctx), ids[0] ?? 0),
  body: (ctx, invite) => ctx.t("invite-revoke-confirm", { name: esc(invite.name) }),
});

/** The join requests waiting in the channel, read once per draw. */
const requestsScreen = createScreen("channel-requests", 1, {
  load: (ctx, ids) => listRequests(ctx.deps, uid(ctx), ids[0] ?? 0),
  body: requestsText,
});

function requestsText(ctx: BotContext, rows: Awaited<ReturnType<typeof listRequests>>): string {
  if (!rows.length) return ctx.t("requests-none");
  // a viewer has no buttons naming the people who wait: they are named here instead
  if (!may(ctx))
    return [ctx.t("ws-read-requests", { count: rows.length }), ...rows.slice(0, 20).map((r) => `• ${esc(who(ctx, r))}`)].join("\n");
  return ctx.t("requests-title", { count: rows.length });
}

const who = (ctx: BotContext, r: { firstName: string | null; username: string | null; memberId: number }) =>
  r.firstName ?? (r.username ? `@${r.username}` : ctx.t("requests-user", { id: String(r.memberId) }));

/** Invites listed on the Channels screen itself, so an invite's option is 3 taps from /start. */
const RECENT_INVITES = 10;

buttons(channelsScreen, (_ctx, range, m) => {
  for (const c of m.channels) {
    go(range, channelsScreen, `${c.botIsAdmin ? "📣" : "⚠️"} ${c.title ?? c.chatId}`, "channel", (x) => [itemOf(x, channelsScreen)], c.id);
    range.row();
  }
  for (const i of m.invites) {
    go(range, channelsScreen, `🔗 ${i.name} · ${i.channelTitle}`, "invite", (x) => [itemOf(x, channelsScreen)], i.id);
    range.row();
  }
});
backHome(channelsScreen);

buttons(channelScreen, (ctx, range, m) => {
  for (const i of m.invites) {
    go(range, channelScreen, `${i.isRevoked ? "🚫" : "🔗"} ${i.name}`, "invite", (x) => [itemOf(x, channelScreen)], i.id);
    range.row();
  }
  // someone who no longer runs the chat keeps reading their invites, and nothing more
  if (m.refused) return;
  const channel = m.c;
  // without the bot as an administrator with the right to invite, an invite could not be made
  if (channel.botIsAdmin && channel.canInvite)
    writes(ctx, range).text({ text: l("channel-new-invite"), payload: payload(channelScreen) }, (c) =>
      act(c, () => c.conversation.enter(NEW_INVITE, idOf(c)), "channels"),
    );
  const waiting = m.waiting;
  if (waiting) go(range, channelScreen, ctx.t("channel-requests", { count: waiting }), "channel-requests", (c) => [idOf(c)]);
  range.row();
  for (const format of ["csv", "xlsx"] as const)
    range.text({ text: `📤 ${format.toUpperCase()}`, payload: payload(channelScreen) }, (c) =>
      say(c, async () => {
        const r = await exportJoinJournal(c.deps, uid(c), idOf(c), { format });
        if (!r.ok) await c.reply(c.t("channel-export-empty"));
      }),
    );
  range.text({ text: l("card-chart"), payload: payload(channelScreen) }, (c) =>
    say(c, async () => void (await sendJoinChart(c.deps, uid(c), idOf(c), {}))),
  );
  range.row();
});
back(channelScreen, l("channels-back"), "channels");

buttons(inviteScreen, (ctx, range, { invite }) => {
  range.copyText(l("card-copy"), invite.inviteLink).row();
  const p = payload(inviteScreen);
  // a viewer reads the invite and copies its link; its options and Revoke are for editors and up
  const w = writes(ctx, range);
  let n = 0;
  INVITE_OPTIONS.forEach((o, i) => {
    if ((o.only === "requests" && !invite.joinRequest) || (o.only === "open" && invite.joinRequest)) return;
    w.text({ text: ctx.t(o.label), payload: p }, (c) => act(c, () => c.conversation.enter(INVITE_OPTION, idOf(c), i), "channels"));
    if (++n % 3 === 0) range.row();
  });
  range.row();
  if (!invite.isRevoked) go(w, inviteScreen, l("invite-revoke"), "invite-revoke", (c) => [idOf(c)]);
});
back(inviteScreen, l("channel-back"), "channel", async (c) => [(await modelOf(c, inviteScreen)).invite.channelId]);

inviteRevoke.text({ text: l("invite-revoke-yes"), payload: payload(inviteRevoke) }, (ctx) =>
  act(
    ctx,
    async () => {
      mayChange(ctx);
      await write(ctx, revokeInvite, idOf(ctx));
      await open(ctx, inviteScreen, [idOf(ctx)], ctx.t("invite-revoked"));
    },
    "channels",
  ),
);
back(inviteRevoke, l("tracker-keep"), "invite", (c) => [idOf(c)]);

buttons(requestsScreen, (ctx, range, waiting) => {
  // a viewer sees who waits; approving and declining are for editors and up
  const w = writes(ctx, range);
  if (waiting.length > 1)
    w.text({ text: ctx.t("requests-approve-all", { count: waiting.length }), payload: payload(requestsScreen) }, (c) =>
      act(
        c,
        async () => {
          mayChange(c);
          const { approved, refused } = await write(c, approveAllRequests, idOf(c));
          await open(c, requestsScreen, [idOf(c)], c.t("requests-approved-all", { count: approved, refused }));
        },
        "channels",
      ),
    ).row();
  for (const r of waiting.slice(0, 20)) {
    for (const action of ["approve", "decline"] as const)
      w.text({ text: `${action === "approve" ? "✅" : "❌"} ${who(ctx, r)}`, payload: payload(requestsScreen, r.id) }, (c) =>
        act(
          c,
          async () => {
            mayChange(c);
            const row = await write(c, settleRequest, itemOf(c, requestsScreen), action);
            await open(
              c,
              requestsScreen,
              [idOf(c)],
              c.t(action === "approve" ? "request-approved" : "request-declined", { name: esc(who(c, row)) }),
            );
          },
          "channels",
        ),
      );
    range.row();
  }
});
back(requestsScreen, l("channel-back"), "channel", (c) => [idOf(c)]);

/** The channel screens under `parent`, in their tree. */
export function registerChannels(parent: Screen) {
  parent.register(channelsScreen);
  channelsScreen.register(channelScreen);
  channelScreen.register([inviteScreen, requestsScreen]);
  inviteScreen.register(inviteRevoke);
}
