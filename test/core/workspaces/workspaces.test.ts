/** Workspaces in core (core/workspaces/): teams, roles, invitations, members and the audit log, on SQLite and PostgreSQL. */
import { expect, test } from "bun:test";
import { ManualClock } from "../../../core/clock";
import type { Deps } from "../../../core/deps";
import { loadConfig } from "../../../config";
import {
  createInvite,
  createWorkspace,
  deleteWorkspace,
  getCurrentWorkspace,
  inviteTokenOfStart,
  joinWorkspace,
  listAudit,
  listMembers,
  listWorkspaces,
  pruneAudit,
  removeMember,
  roleIn,
  setCurrentWorkspace,
  requireRole,
  ROLE_TABLE,
  ROLES,
  setMemberRole,
  type AuditEntry,
  type AuditInput,
  type Member,
  type Role,
  type Workspace,
} from "../../../core/workspaces";
import { redact } from "../../../core/workspaces/audit";
import { auditAction } from "../../../core/workspaces/audit-action";
import { getUser } from "../../../core/accounts/users";
import { onBothDatabases } from "../../helpers/async-engines";

onBothDatabases((open) => {
  async function setup() {
    const { db } = await open();
    const clock = new ManualClock("2026-03-01T09:00:00.000Z");
    const config = loadConfig({ DATA_DIR: "/tmp", BASE_URL: "https://links.example" });
    const deps = { asyncDb: db, clock, config, telegram: null } as unknown as Deps;
    const person = async (firstName: string, plan: "free" | "pro" = "free") =>
      (await db.insert(db.tables.users).values({ firstName, plan, createdAt: clock.now() }).returning())[0]!;
    return { db, clock, deps, person };
  }

  test("a team made by a person: they own it; everyone's personal workspace comes first; the bot's current one follows the choice", async () => {
    const { deps, person } = await setup();
    const ann = await person("Ann");
    const team: Workspace = await createWorkspace(deps, ann.id, "  Acme   ads ");
    expect(team).toEqual({ id: team.id, name: "Acme ads", role: "owner", personal: false });
    expect(await listWorkspaces(deps, ann.id)).toEqual([{ id: ann.id, name: "Ann", role: "owner", personal: true }, team]);
    expect(await roleIn(deps, ann.id, ann.id)).toBe("owner");
    expect(await roleIn(deps, ann.id, team.id)).toBe("owner");
    // a team cannot be acted in as if it were a person's own
    expect(await roleIn(deps, team.id, team.id)).toBeNull();
    expect((await getCurrentWorkspace(deps, ann.id)).id).toBe(ann.id);
    expect((await setCurrentWorkspace(deps, ann.id, team.id)).id).toBe(team.id);
    expect((await getCurrentWorkspace(deps, ann.id)).id).toBe(team.id);
    const bob = await person("Bob");
    await expect(setCurrentWorkspace(deps, bob.id, team.id)).rejects.toThrow("Workspace not found");
    await expect(createWorkspace(deps, ann.id, "   ")).rejects.toThrow("name: must be 1 to 100 characters");
  });

  test("an invitation is used once and lasts 7 days; the member's role is what it said", async () => {
    const { deps, person, clock } = await setup();
    const [ann, bob, cat, dan] = [await person("Ann"), await person("Bob"), await person("Cat"), await person("Dan")];
    const team = await createWorkspace(deps, ann.id, "Acme");
    const invite = await createInvite(deps, ann.id, team.id, "editor");
    expect(invite.expiresAt).toBe("2026-03-08T09:00:00.000Z");
    // without a bot the link opens the mini-app
    expect(invite.url).toBe(`https://links.example/app/join?token=${invite.token}`);
    expect(inviteTokenOfStart(`join_${invite.token}`)).toBe(invite.token);
    expect(await joinWorkspace(deps, bob.id, invite.token)).toEqual({ id: team.id, name: "Acme", role: "editor", personal: false });
    await expect(joinWorkspace(deps, cat.id, invite.token)).rejects.toMatchObject({ status: 410, code: "invite_used" });
    const late = await createInvite(deps, ann.id, team.id, "viewer");
    clock.advance(7 * 86_400_000);
    await expect(joinWorkspace(deps, cat.id, late.token)).rejects.toMatchObject({ status: 410, code: "invite_expired" });
    await expect(joinWorkspace(deps, cat.id, "no-such-token-at-all-here")).rejects.toMatchObject({ status: 404 });
    // an editor invites nobody; a non-member does not learn the workspace exists
    await expect(createInvite(deps, bob.id, team.id, "viewer")).rejects.toMatchObject({ status: 403, code: "forbidden_role" });
    await expect(createInvite(deps, dan.id, team.id, "viewer")).rejects.toMatchObject({ status: 404 });
    // a personal workspace has nobody to invite
    await expect(createInvite(deps, ann.id, ann.id, "viewer")).rejects.toMatchObject({ status: 400 });
    const people: Member[] = await listMembers(deps, bob.id, team.id);
    expect(people.map((m) => [m.name, m.role])).toEqual([
      ["Ann", "owner"],
      ["Bob", "editor"],
    ]);
  });

  test("roles change by an admin, owners only by an owner; the last owner stays; removal ends membership and the audit says who did what", async () => {
    const { deps, person, db, clock } = await setup();
    const [ann, bob, cat] = [await person("Ann"), await person("Bob"), await person("Cat")];
    const team = await createWorkspace(deps, ann.id, "Acme");
    await joinWorkspace(deps, bob.id, (await createInvite(deps, ann.id, team.id, "admin")).token);
    await joinWorkspace(deps, cat.id, (await createInvite(deps, bob.id, team.id, "viewer")).token);
    await expect(createInvite(deps, bob.id, team.id, "owner")).rejects.toMatchObject({ code: "forbidden_role" });
    expect((await setMemberRole(deps, bob.id, team.id, cat.id, "editor")).role).toBe("editor");
    await expect(setMemberRole(deps, bob.id, team.id, cat.id, "owner")).rejects.toMatchObject({ code: "forbidden_role" });
    await expect(setMemberRole(deps, bob.id, team.id, ann.id, "viewer")).rejects.toMatchObject({ code: "forbidden_role" });
    await expect(setMemberRole(deps, cat.id, team.id, bob.id, "viewer")).rejects.toMatchObject({ code: "forbidden_role" });
    await expect(setMemberRole(deps, ann.id, team.id, ann.id, "admin")).rejects.toMatchObject({ status: 409, code: "last_owner" });
    await expect(removeMember(deps, ann.id, team.id, ann.id)).rejects.toMatchObject({ code: "last_owner" });
    clock.advance(60_000);
    await removeMember(deps, bob.id, team.id, cat.id);
    expect(await roleIn(deps, cat.id, team.id)).toBeNull();
    await expect(listMembers(deps, cat.id, team.id)).rejects.toMatchObject({ status: 404 });

    const page: { data: AuditEntry[]; total: number } = await listAudit(deps, ann.id, team.id, { page: 1, limit: 3 });
    expect(page.total).toBe(7);
    expect(page.data[0]).toEqual({
      at: "2026-03-01T09:01:00.000Z",
      actor: { id: bob.id, name: "Bob" },
      action: "members.remove",
      subject: { type: "member", id: String(cat.id) },
      details: { before: { role: "editor" } },
    });
    expect(page.data[1]).toMatchObject({ action: "members.role", details: { before: { role: "viewer" }, after: { role: "editor" } } });
    const joins = await listAudit(deps, ann.id, team.id, { action: "members.join" });
    expect(joins.data.map((e) => e.actor.name)).toEqual(["Cat", "Bob"]);
    expect((await listAudit(deps, ann.id, team.id, { action: "invites" })).total).toBe(2);
    expect((await listAudit(deps, ann.id, team.id, { actorId: bob.id })).total).toBe(4);
    expect((await listAudit(deps, ann.id, team.id, { from: new Date("2026-03-01T09:00:30Z") })).total).toBe(1);
    await expect(listAudit(deps, cat.id, team.id, {})).rejects.toMatchObject({ status: 404 });
    // a year later the entries go
    clock.advance(366 * 86_400_000);
    expect(await pruneAudit(deps)).toBe(7);
    void db;
  });

  test("a team's plan is its best owner's; deleting a team is its owner's alone, a personal workspace stays", async () => {
    const { deps, person } = await setup();
    const [ann, bob] = [await person("Ann", "pro"), await person("Bob")];
    const team = await createWorkspace(deps, bob.id, "Acme");
    expect((await getUser(deps, team.id)).plan).toBe("free");
    await joinWorkspace(deps, ann.id, (await createInvite(deps, bob.id, team.id, "owner")).token);
    expect((await getUser(deps, team.id)).plan).toBe("pro");
    await setMemberRole(deps, bob.id, team.id, ann.id, "admin");
    expect((await getUser(deps, team.id)).plan).toBe("free");
    await expect(deleteWorkspace(deps, ann.id, team.id)).rejects.toMatchObject({ code: "forbidden_role" });
    await expect(deleteWorkspace(deps, bob.id, bob.id)).rejects.toMatchObject({ status: 400 });
    await setCurrentWorkspace(deps, ann.id, team.id);
    await deleteWorkspace(deps, bob.id, team.id);
    expect((await listWorkspaces(deps, ann.id)).map((w) => w.id)).toEqual([ann.id]);
    expect((await getCurrentWorkspace(deps, ann.id)).id).toBe(ann.id);
  });

  test("a team without a zone of its own keeps its first owner's when its report is turned on or its currency set", async () => {
    const { deps, person } = await setup();
    const { getSettings, updateSettings } = await import("../../../core/reports/settings");
    const { timeZoneOf } = await import("../../../core/i18n/zone");
    const { setWorkspaceCurrency } = await import("../../../core/workspaces/currency");
    const ann = await person("Ann");
    await updateSettings(deps, ann.id, { time_zone: "Asia/Kolkata" });
    const reports = await createWorkspace(deps, ann.id, "Reports");
    expect((await getSettings(deps, reports.id)).time_zone).toBe("Asia/Kolkata");
    await updateSettings(deps, reports.id, { report_every: "day", report_hour: 9 });
    expect((await getSettings(deps, reports.id)).time_zone).toBe("Asia/Kolkata");
    expect(await timeZoneOf(deps, reports.id)).toBe("Asia/Kolkata");
    const priced = await createWorkspace(deps, ann.id, "Priced");
    await setWorkspaceCurrency(deps, ann.id, priced.id, "EUR");
    expect(await timeZoneOf(deps, priced.id)).toBe("Asia/Kolkata");
    // a person without a zone is still on UTC
    expect((await getSettings(deps, (await person("Bob")).id)).time_zone).toBe("UTC");
  });
});

test("the role table: reading is a viewer's, changing an editor's, people an admin's, the workspace its owner's", () => {
  const need: [Role, string][] = [
    ["viewer", "read:links"],
    ["editor", "write:links"],
    ["admin", "members"],
    ["owner", "owner"],
  ];
  for (const [role, gate] of need) expect(ROLE_TABLE[gate as keyof typeof ROLE_TABLE]).toBe(role);
  for (const role of ROLES) {
    for (const [needed] of need) {
      const refused = (() => {
        try {
          requireRole(role, needed);
          return false;
        } catch (e) {
          expect(e).toMatchObject({ status: 403, code: "forbidden_role" });
          return true;
        }
      })();
      expect([role, needed, refused]).toEqual([role, needed, ROLES.indexOf(role) > ROLES.indexOf(needed)]);
    }
  }
});

test("audit details never carry a secret, at any depth, and long text is cut", () => {
  const input: AuditInput = {
    workspaceId: 1,
    actorId: 2,
    action: "links.create",
    subject: { type: "link", id: 3 },
    details: { url: "https://x.example/", password: "hunter2", nested: { apiToken: "lbt_sk_x", note: "y".repeat(600) } },
  };
  const shown = redact(input.details) as { password: string; nested: { apiToken: string; note: string } };
  expect(shown.password).toBe("***");
  expect(shown.nested.apiToken).toBe("***");
  expect(shown.nested.note).toHaveLength(501);
});

test("a write route's audit action and subject type come from its method and path", () => {
  expect(auditAction("POST", "/api/links")).toEqual({ action: "links.create", type: "link" });
  expect(auditAction("PATCH", "/api/links/:id")).toEqual({ action: "links.update", type: "link" });
  expect(auditAction("DELETE", "/api/secure/folders/:id")).toEqual({ action: "secure.folders.delete", type: "folder" });
  expect(auditAction("POST", "/api/requests/:id/approve")).toEqual({ action: "requests.approve", type: "request" });
  expect(auditAction("POST", "/api/links/bulk")).toEqual({ action: "links.bulk.create", type: "bulk" });
  expect(auditAction("POST", "/api/tracking/:id/matches/read-all")).toEqual({ action: "tracking.matches.read_all", type: "match" });
});
