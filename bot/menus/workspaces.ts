/**
 * Workspaces in the bot: the workspace line and the one-tap switch on Settings, and under it the
 * Team screen (members and roles, the team group, the last changes), a member's screen (change the
 * role, remove) and the invitation (a one-use t.me link per role, shared with Telegram's share button).
 * Changing people is for owners and admins; every member sees the team and its last changes.
 */
import type { MenuRange } from "@grammyjs/menu";
import type { BotContext } from "../context";
import { date, l } from "../i18n";
import { act, back, buttons, createScreen, go, idOf, itemOf, modelOf, open, payload, screenAt, type Screen } from "./nav";
import {
  createInvite,
  joinWorkspace,
  listAudit,
  listMembers,
  listWorkspaces,
  removeMember,
  setCurrentWorkspace,
  setMemberRole,
  ROLES,
  type Member,
  type Role,
} from "../../core/workspaces";
import { teamChatOf } from "../../core/team-chat/chats";
import { AppError, NotFound } from "../../core/errors";
import { problemText } from "../problem";
import { actingIn, may } from "../workspace";
import { auditLine } from "./audit-words";

export const NEW_TEAM = "new-team";
const esc = (s: string) => Bun.escapeHTML(s);
/** How many workspaces get a switch button on Settings (the rest: the mini-app). */
const SWITCHES = 8;
/** How many entries "Last changes" shows. */
const LAST_CHANGES = 15;

const roleName = (ctx: BotContext, role: Role) => ctx.t(`ws-role-${role}`);
const isTeam = (ctx: BotContext) => ctx.owner.kind === "team";
const workspaceName = (ctx: BotContext) => (isTeam(ctx) ? (ctx.owner.name ?? "") : ctx.t("ws-personal"));

/** The Settings line naming the workspace the person acts in and their role there. */
export function workspaceLine(ctx: BotContext): string {
  return isTeam(ctx) ? ctx.t("ws-line-team", { name: esc(workspaceName(ctx)), role: roleName(ctx, ctx.role) }) : ctx.t("ws-line-personal");
}

/** The person's workspaces, as Settings loads them into its model for the buttons below. */
export const workspacesOf = (ctx: BotContext) => listWorkspaces(ctx.deps, ctx.user.id);

/** Settings' workspace buttons, from its model: one per workspace (the current one marked), Team, and a new team. */
export function workspaceButtons<M extends { workspaces: Awaited<ReturnType<typeof workspacesOf>> }>(settings: Screen<M>) {
  buttons(settings, (ctx, range, { workspaces: all }) => {
    // alone in their own workspace, a person gets only "New team"
    if (all.length > 1)
      for (const [i, ws] of all.slice(0, SWITCHES).entries()) {
        const label = ws.personal ? ctx.t("ws-personal") : ws.name;
        switchButton(range, settings, ws.id === ctx.owner.id ? `• ${label} •` : label, ws.id);
        if (i % 2 === 1) range.row();
      }
    range.row();
    if (isTeam(ctx)) go(range, settings, ctx.t("ws-team-button"), "team", () => []);
    range.text({ text: ctx.t("ws-new-team"), payload: payload(settings) }, (c) => act(c, () => c.conversation.enter(NEW_TEAM)));
    range.row();
  });
}

function switchButton(range: MenuRange<BotContext>, settings: Screen, label: string, workspaceId: number) {
  range.text({ text: label, payload: payload(settings, workspaceId) }, (ctx) =>
    act(ctx, async () => {
      await switchTo(ctx, itemOf(ctx, settings));
      await open(ctx, settings, [], ctx.t("ws-switched", { name: esc(workspaceName(ctx)) }));
    }),
  );
}

/** Makes `workspaceId` the person's current workspace, for this update too. */
export async function switchTo(ctx: BotContext, workspaceId: number) {
  await setCurrentWorkspace(ctx.deps, ctx.user.id, workspaceId);
  Object.assign(ctx, await actingIn(ctx.deps, { ...ctx.user, currentWorkspaceId: workspaceId }));
}

/** The members as the Team screen lists them, read once per draw. */
const membersOf = (ctx: BotContext) => listMembers(ctx.deps, ctx.user.id, ctx.owner.id);
const memberName = (m: Member) => m.name ?? (m.username ? `@${m.username}` : `#${m.id}`);

/** The team: its members and its group, read once per draw. */
const teamScreen = createScreen("team", 0, {
  load: async (ctx) => ({ members: await membersOf(ctx), group: await teamChatOf(ctx.deps.asyncDb, ctx.owner.id) }),
  body: (ctx, { members, group }) =>
    [
      ctx.t("ws-team-title", { name: esc(workspaceName(ctx)), count: members.length }),
      "",
      ...members.map((m) => ctx.t("ws-member-line", { name: esc(memberName(m)), role: roleName(ctx, m.role) })),
      "",
      group
        ? ctx.t(group.threadId === null ? "ws-group-line" : "ws-group-topic-line", { title: esc(group.title ?? group.chatId) })
        : ctx.t("ws-group-none", { bot: ctx.me.username }),
    ].join("\n"),
});

// owners and admins: a button per other member, and the invitation
buttons(teamScreen, (ctx, range, { members }) => {
  if (!may(ctx, "admin")) return;
  for (const m of members.filter((x) => x.id !== ctx.user.id).slice(0, 30)) {
    go(range, teamScreen, `${memberName(m)} · ${roleName(ctx, m.role)}`, "ws-member", (c) => [itemOf(c, teamScreen)], m.id);
    range.row();
  }
  go(range, teamScreen, ctx.t("ws-invite-button"), "ws-invite", () => []);
});
teamScreen.row();
go(teamScreen, teamScreen, l("ws-audit-button"), "ws-audit", () => []);
teamScreen.row();
back(teamScreen, l("settings-back"), "settings");

async function memberOf(ctx: BotContext, id: number): Promise<Member> {
  const m = (await membersOf(ctx)).find((x) => x.id === id);
  if (!m) throw new NotFound("Member");
  return m;
}

const memberScreen = createScreen("ws-member", 1, {
  load: (ctx, [id = 0]) => memberOf(ctx, id),
  body: (ctx, m) => ctx.t("ws-member-title", { name: esc(memberName(m)), role: roleName(ctx, m.role), since: date(ctx, m.addedAt) }),
});

/** The roles an actor may hand out: an owner any, an admin up to admin. */
const grantable = (ctx: BotContext): readonly Role[] => (may(ctx, "owner") ? ROLES : ROLES.filter((r) => r !== "owner"));

buttons(memberScreen, (ctx, range, m) => {
  for (const role of grantable(ctx).filter((r) => r !== m.role))
    range.text({ text: ctx.t("ws-make-role", { role }), payload: payload(memberScreen) }, (c) =>
      act(
        c,
        async () => {
          const changed = await setMemberRole(c.deps, c.user.id, c.owner.id, idOf(c), role);
          await open(c, memberScreen, [changed.id], c.t("ws-role-changed", { name: esc(memberName(changed)), role: roleName(c, role) }));
        },
        "team",
      ),
    );
  range.row();
  range.text({ text: ctx.t("ws-remove-member"), payload: payload(memberScreen) }, (c) =>
    act(
      c,
      async () => {
        const gone = await modelOf(c, memberScreen);
        await removeMember(c.deps, c.user.id, c.owner.id, gone.id);
        await open(c, teamScreen, [], c.t("ws-member-removed", { name: esc(memberName(gone)) }));
      },
      "team",
    ),
  );
});
memberScreen.row();
back(memberScreen, l("ws-back-team"), "team");

const inviteScreen = createScreen("ws-invite", 0, { body: (ctx) => ctx.t("ws-invite-text", { name: esc(workspaceName(ctx)) }) });

buttons(inviteScreen, (ctx, range) => {
  for (const role of grantable(ctx))
    range.text({ text: ctx.t("ws-invite-as", { role }), payload: payload(inviteScreen) }, (c) => act(c, () => sendInvite(c, role), "team"));
  range.row();
});
back(inviteScreen, l("ws-back-team"), "team");

/** Makes a one-use invitation and sends it as its own message, with Telegram's share button. */
async function sendInvite(ctx: BotContext, role: Role) {
  const invite = await createInvite(ctx.deps, ctx.user.id, ctx.owner.id, role);
  const name = workspaceName(ctx);
  const share = new URL("https://t.me/share/url");
  share.searchParams.set("url", invite.url);
  share.searchParams.set("text", ctx.t("ws-invite-share-text", { name }));
  await ctx.answerCallbackQuery().catch(() => undefined);
  await ctx.reply(
    ctx.t("ws-invite-made", { name: esc(name), role: roleName(ctx, role), url: esc(invite.url), until: date(ctx, invite.expiresAt, true) }),
    {
      link_preview_options: { is_disabled: true },
      reply_markup: { inline_keyboard: [[{ text: ctx.t("ws-invite-share"), url: share.href }]] },
    },
  );
}

const auditScreen = createScreen("ws-audit", 0, {
  load: (ctx) => listAudit(ctx.deps, ctx.user.id, ctx.owner.id, { page: 1, limit: LAST_CHANGES }),
  body: (ctx, { data, total }) => {
    if (!data.length) return ctx.t("ws-audit-empty");
    return [ctx.t("ws-audit-title", { count: total }), "", ...data.map((e) => auditLine(ctx, e))].join("\n");
  },
});
back(auditScreen, l("ws-back-team"), "team");

/**
 * `/start join_<token>` (an invitation link): joins the team, once, and works in it from then on;
 * Settings shows where the person now is. A used, expired or unknown invitation is said in words.
 */
export async function joinByInvite(ctx: BotContext, token: string) {
  try {
    const ws = await joinWorkspace(ctx.deps, ctx.user.id, token);
    await switchTo(ctx, ws.id);
    await open(ctx, screenAt("settings"), [], ctx.t("ws-joined", { name: esc(ws.name), role: roleName(ctx, ws.role) }));
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.reply(`⚠️ ${esc(problemText(ctx, e))}`);
  }
}

/** Registers the workspace screens under Settings. */
export function registerWorkspaces(settings: Screen) {
  settings.register(teamScreen);
  teamScreen.register([memberScreen, inviteScreen, auditScreen]);
}
