/**
 * Channel screens: the list (/channels) → a channel (members, joins and leaves today and in total,
 * its invites, waiting requests) → an invite (its figures, link, options, Revoke). "New invite"
 * asks a name and whether people must ask to join, then each option is one tap and one answer.
 */
import type { BotContext } from "../context";
import { act, back, backHome, createScreen, dynamic, go, idOf, itemOf, open, payload, type Screen } from "./nav";
import { listChannels, ownedChannel } from "../../core/channels/channels";
import { inviteView, listInvites, ownedInvite, revokeInvite } from "../../core/channels/invites";
import { channelSince, channelStats, inviteStats } from "../../core/channels/stats";
import { placementsOf } from "../../core/tracking/link-watch";
import { placementLine } from "./link-card";
import { listRequests, settleRequest } from "../../core/channels/requests";
import { INVITE_OPTIONS } from "./invite-options";
import { exportJoinJournal, sendJoinChart } from "../../core/channels/export";
import { say } from "./link-stats";

export const NEW_INVITE = "new-invite";
export const INVITE_OPTION = "invite-option";
const esc = (s: string) => Bun.escapeHTML(s);
const uid = (ctx: BotContext) => ctx.user!.id;
const pct = (r: number | null) => (r === null ? "—" : `${Math.round(r * 100)} %`);
const money = (n: number | null, currency?: string) => (n === null || !currency ? "—" : `${n.toFixed(2)} ${currency}`);

/** Why a join to a public channel may have no invite: said where the figures are. */
export const PUBLIC_NOTE = "ℹ️ Telegram does not say how someone joined a public channel by its @name, so such joins count as unattributed. For a public channel, use invite links with join requests: every join through them is counted.";

export const channelsScreen = createScreen("channels", 0, async (ctx) => {
  const rows = await listChannels(ctx.deps, uid(ctx));
  return rows.length
    ? "📣 <b>Your channels</b>\nTap one to see who joins and who leaves, and to make invite links for your ads."
    : "📣 You have no channels yet. Make me an administrator of your channel or group (with the right to invite users): it appears here, and I count who joins through each of your invite links.";
});

export const channelScreen = createScreen("channel", 1, async (ctx) => {
  const c = await ownedChannel(ctx.deps, uid(ctx), idOf(ctx));
  const stats = await channelStats(ctx.deps, uid(ctx), c.id);
  const now = ctx.deps.clock.now();
  const today = await channelSince(ctx.deps, uid(ctx), c.id, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())));
  const waiting = (await listRequests(ctx.deps, uid(ctx), c.id)).length;
  return [
    `📣 <b>${esc(c.title ?? c.chatId)}</b>${c.username ? ` (@${esc(c.username)})` : ""}`,
    `Members: ${c.members ?? "—"}`,
    `Today: +${today.joins} / −${today.leaves}`,
    `In total: +${stats.joins} / −${stats.leaves} (net ${stats.net})`,
    `Unattributed: +${stats.unattributed.joins} / −${stats.unattributed.leaves}`,
    waiting ? `🙋 ${waiting} waiting to join` : "",
    !c.botIsAdmin ? "⚠️ I am no longer an administrator there: make me one again to make invites." : !c.canInvite ? "⚠️ I lack the right to invite users there: give me “Invite users via link”." : "",
    c.username ? `\n${PUBLIC_NOTE}` : "",
  ].filter(Boolean).join("\n");
});

export const inviteScreen = createScreen("invite", 1, async (ctx) => {
  const invite = await ownedInvite(ctx.deps, uid(ctx), idOf(ctx));
  const view = await inviteView(ctx.deps, invite);
  const f = await inviteStats(ctx.deps, uid(ctx), invite.id);
  const placed = await placementsOf(ctx.deps, uid(ctx), { inviteId: invite.id });
  const r = f.retention;
  return [
    `🔗 <b>${esc(invite.name)}</b>${invite.isRevoked ? " (revoked)" : ""}`,
    `<code>${esc(invite.inviteLink)}</code>`,
    view.trackingUrl ? `Tracking link: ${esc(view.trackingUrl)} (${f.clicks} clicks, ${f.unique_clicks} unique)` : "",
    invite.joinRequest ? `People ask to join; approval ${invite.approve === "auto" ? "automatic" : "by you"}${view.stats.pending ? `, ${view.stats.pending} waiting` : ""}` : "",
    invite.expiresAt ? `Expires ${invite.expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC` : "",
    invite.memberLimit ? `At most ${invite.memberLimit} people` : "",
    "",
    `Joined: ${f.joins} · left: ${f.leaves} · net: ${f.net}`,
    placed.posts ? placementLine(placed) : "",
    f.conversion !== null ? `Conversion: ${pct(f.conversion)} of unique clicks` : "",
    `Stayed 24 h: ${pct(r.h24.rate)} of ${r.h24.eligible} · 7 d: ${pct(r.d7.rate)} of ${r.d7.eligible} · 30 d: ${pct(r.d30.rate)} of ${r.d30.eligible}`,
    invite.cost ? `Price: ${invite.cost.amount} ${invite.cost.currency} · per join: ${money(f.cost_per_join, invite.cost.currency)} · per subscriber who stayed 7 d: ${money(f.cost_per_retained, invite.cost.currency)}` : "",
  ].filter((l, i, all) => l !== "" || (i > 0 && all[i - 1] !== "")).join("\n");
});

export const inviteRevoke = createScreen("invite-revoke", 1, async (ctx) => `Revoke “${esc((await ownedInvite(ctx.deps, uid(ctx), idOf(ctx))).name)}”? Nobody can join through it any more; its figures stay.`);

export const requestsScreen = createScreen("channel-requests", 1, async (ctx) => {
  const rows = await listRequests(ctx.deps, uid(ctx), idOf(ctx));
  return rows.length ? `🙋 <b>Waiting to join</b> (${rows.length})\nApprove or decline each one.` : "Nobody is waiting to join.";
});

const who = (r: { firstName: string | null; username: string | null; memberId: number }) => r.firstName ?? (r.username ? `@${r.username}` : `user ${r.memberId}`);

dynamic(channelsScreen.menu, async (ctx, range) => {
  for (const c of await listChannels(ctx.deps, uid(ctx))) {
    go(range, channelsScreen, `${c.botIsAdmin ? "📣" : "⚠️"} ${c.title ?? c.chatId}`, "channel", (x) => [itemOf(x, channelsScreen)], c.id);
    range.row();
  }
});
backHome(channelsScreen);

dynamic(channelScreen.menu, async (ctx, range) => {
  const id = idOf(ctx);
  for (const i of (await listInvites(ctx.deps, uid(ctx), id)).slice(0, 30)) {
    go(range, channelScreen, `${i.isRevoked ? "🚫" : "🔗"} ${i.name}`, "invite", (x) => [itemOf(x, channelScreen)], i.id);
    range.row();
  }
  range.text({ text: "➕ New invite", payload: payload(channelScreen) }, (c) => act(c, () => c.conversation.enter(NEW_INVITE, idOf(c)), "channels"));
  if ((await listRequests(ctx.deps, uid(ctx), id)).length) go(range, channelScreen, "🙋 Requests", "channel-requests", (c) => [idOf(c)]);
  range.row();
  for (const format of ["csv", "xlsx"] as const)
    range.text({ text: `📤 ${format.toUpperCase()}`, payload: payload(channelScreen) }, (c) => say(c, async () => {
      const r = await exportJoinJournal(c.deps, uid(c), idOf(c), { format });
      if (!r.ok) await c.reply(`ℹ️ ${r.message}`);
    }));
  range.text({ text: "📈 Chart", payload: payload(channelScreen) }, (c) => say(c, async () => void (await sendJoinChart(c.deps, uid(c), idOf(c), {}))));
  range.row();
});
back(channelScreen, "⬅️ Channels", "channels");

dynamic(inviteScreen.menu, async (ctx, range) => {
  const invite = await ownedInvite(ctx.deps, uid(ctx), idOf(ctx));
  const p = payload(inviteScreen);
  let n = 0;
  INVITE_OPTIONS.forEach((o, i) => {
    if ((o.only === "requests" && !invite.joinRequest) || (o.only === "open" && invite.joinRequest)) return;
    range.text({ text: o.label, payload: p }, (c) => act(c, () => c.conversation.enter(INVITE_OPTION, idOf(c), i), "channels"));
    if (++n % 3 === 0) range.row();
  });
  range.row();
  if (!invite.isRevoked) go(range, inviteScreen, "🚫 Revoke", "invite-revoke", (c) => [idOf(c)]);
});
back(inviteScreen, "⬅️ Channel", "channel", async (c) => [(await ownedInvite(c.deps, uid(c), idOf(c))).channelId]);

inviteRevoke.menu.text({ text: "🚫 Yes, revoke it", payload: payload(inviteRevoke) }, (ctx) => act(ctx, async () => {
  await revokeInvite(ctx.deps, uid(ctx), idOf(ctx));
  await open(ctx, inviteScreen, [idOf(ctx)], "🚫 Revoked: nobody can join through it any more.");
}, "channels"));
back(inviteRevoke, "No, keep it", "invite", (c) => [idOf(c)]);

dynamic(requestsScreen.menu, async (ctx, range) => {
  for (const r of (await listRequests(ctx.deps, uid(ctx), idOf(ctx))).slice(0, 20)) {
    for (const action of ["approve", "decline"] as const)
      range.text({ text: `${action === "approve" ? "✅" : "❌"} ${who(r)}`, payload: payload(requestsScreen, r.id) }, (c) => act(c, async () => {
        const row = await settleRequest(c.deps, uid(c), itemOf(c, requestsScreen), action);
        await open(c, requestsScreen, [idOf(c)], action === "approve" ? `✅ ${esc(who(row))} was let in.` : `❌ ${esc(who(row))} was declined.`);
      }, "channels"));
    range.row();
  }
});
back(requestsScreen, "⬅️ Channel", "channel", (c) => [idOf(c)]);

/** The channel screens under `parent`, in their tree. */
export function registerChannels(parent: Screen) {
  parent.menu.register(channelsScreen.menu);
  channelsScreen.menu.register(channelScreen.menu);
  channelScreen.menu.register([inviteScreen.menu, requestsScreen.menu]);
  inviteScreen.menu.register(inviteRevoke.menu);
}
