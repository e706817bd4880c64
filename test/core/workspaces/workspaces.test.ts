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
  setMemberRole,
} from "../../../core/workspaces";
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
    const team = await createWorkspace(deps, ann.id, "  Acme   ads ");
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
    expect((await listMembers(deps, bob.id, team.id)).map((m) => [m.name, m.role])).toEqual([
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

    const page = await listAudit(deps, ann.id, team.id, { page: 1, limit: 3 });
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
});
