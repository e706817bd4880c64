import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { readdirSync } from "node:fs";
import { join as joinPath } from "node:path";
import { sha256 } from "../../core/random";
import { pngBytes } from "./secure/helpers";

let t: TestApp;
beforeEach(() => (t = createTestApp()));
afterEach(() => t.close());

async function teamOf(token: string, name = "Acme") {
  const res = await t.request("POST", "/api/workspaces", { token, body: { name } });
  expect(res.status).toBe(201);
  return res.json.id as number;
}

async function join(owner: string, ws: number, role: string, tg: number, name: string) {
  const invite = await t.request("POST", `/api/workspaces/${ws}/invites`, { token: owner, body: { role } });
  expect(invite.status).toBe(201);
  const person = await t.telegramUser(tg, name);
  expect((await t.request("POST", "/api/workspaces/join", { token: person.token, body: { token: invite.json.token } })).status).toBe(200);
  return person;
}

describe("workspaces over HTTP", () => {
  test("made, listed with the role in each, personal first; an invitation is one use and expires in 7 days", async () => {
    const { token, user } = await t.telegramUser(1, "ann");
    const ws = await teamOf(token);
    const list = await t.request("GET", "/api/workspaces", { token });
    expect(list.json).toEqual([
      { id: user.id, name: "ann", role: "owner", personal: true },
      { id: ws, name: "Acme", role: "owner", personal: false },
    ]);
    const invite = await t.request("POST", `/api/workspaces/${ws}/invites`, { token, body: { role: "editor" } });
    expect(invite.status).toBe(201);
    expect(invite.json.expires_at).toBe(new Date(t.clock.now().getTime() + 7 * 86_400_000).toISOString());
    const bob = await t.telegramUser(2, "bob");
    const cat = await t.telegramUser(3, "cat");
    expect((await t.request("POST", "/api/workspaces/join", { token: bob.token, body: { token: invite.json.token } })).json).toEqual({
      id: ws,
      name: "Acme",
      role: "editor",
      personal: false,
    });
    const again = await t.request("POST", "/api/workspaces/join", { token: cat.token, body: { token: invite.json.token } });
    expect([again.status, again.json.error]).toEqual([410, "invite_used"]);
    const late = await t.request("POST", `/api/workspaces/${ws}/invites`, { token, body: { role: "viewer" } });
    t.clock.advance(7 * 86_400_000);
    const fresh = (await t.telegramUser(3, "cat")).token; // the sign-in of a week ago has expired too
    const expired = await t.request("POST", "/api/workspaces/join", { token: fresh, body: { token: late.json.token } });
    expect([expired.status, expired.json.error]).toEqual([410, "invite_expired"]);
    const owner = (await t.telegramUser(1, "ann")).token;
    expect((await t.request("POST", `/api/workspaces/${ws}/invites`, { token: owner, body: { role: "chief" } })).status).toBe(400);
  });

  test("X-Workspace places a session; a workspace you are not in is 404; a token acts in its own", async () => {
    const ann = await t.telegramUser(1, "ann");
    const ws = await teamOf(ann.token);
    const inTeam = { token: ann.token, headers: { "x-workspace": String(ws) } };
    const made = await t.request("POST", "/api/links", { ...inTeam, body: { url: "https://team.example/" } });
    expect(made.status).toBe(201);
    expect((await t.request("GET", "/api/links", inTeam)).json.map((l: { id: number }) => l.id)).toEqual([made.json.id]);
    expect((await t.request("GET", "/api/links", { token: ann.token })).json).toEqual([]);
    const bob = await t.telegramUser(2, "bob");
    for (const header of [String(ws), "nonsense", "0", String(ann.user.id)]) {
      const res = await t.request("GET", "/api/links", { token: bob.token, headers: { "x-workspace": header } });
      expect([header, res.status]).toEqual([header, 404]);
    }
    // a token made in the team acts in the team, whatever header it sends
    const teamToken = (await t.request("POST", "/api/tokens", { ...inTeam, body: { name: "ci", scopes: ["read:links"] } })).json;
    expect(teamToken.madeBy).toBe(ann.user.id);
    expect((await t.request("GET", "/api/links", { token: teamToken.token })).json).toHaveLength(1);
    expect((await t.request("GET", "/api/links", { token: teamToken.token, headers: { "x-workspace": String(ann.user.id) } })).status).toBe(
      404,
    );
    expect((await t.request("GET", "/api/workspaces", { token: teamToken.token })).status).toBe(403); // session routes need `*`
    // /me is the person whatever the workspace
    expect((await t.request("GET", "/api/auth/me", inTeam)).json.user.id).toBe(ann.user.id);
  });

  test("a token's scopes stay within its maker's role; removal ends access and the member's tokens at once", async () => {
    const ann = await t.telegramUser(1, "ann");
    const ws = await teamOf(ann.token);
    const headers = { "x-workspace": String(ws) };
    const viewer = await join(ann.token, ws, "viewer", 2, "bob");
    const editor = await join(ann.token, ws, "editor", 3, "cat");
    const tooMuch = await t.request("POST", "/api/tokens", { token: viewer.token, headers, body: { name: "x", scopes: ["write:links"] } });
    expect([tooMuch.status, tooMuch.json.error]).toEqual([403, "forbidden_role"]);
    const star = await t.request("POST", "/api/tokens", { token: viewer.token, headers, body: { name: "x" } });
    expect(star.json.error).toBe("forbidden_role");
    const readOnly = await t.request("POST", "/api/tokens", { token: viewer.token, headers, body: { name: "ro", scopes: ["read:links"] } });
    expect(readOnly.status).toBe(201);
    const writer = (await t.request("POST", "/api/tokens", { token: editor.token, headers, body: { name: "w", scopes: ["write:links"] } }))
      .json.token;
    expect((await t.request("POST", "/api/links", { token: writer, body: { url: "https://team.example/1" } })).status).toBe(201);
    // demoted below what the token needs: it stops at once
    await t.request("PATCH", `/api/workspaces/${ws}/members/${editor.user.id}`, { token: ann.token, body: { role: "viewer" } });
    const demoted = await t.request("POST", "/api/links", { token: writer, body: { url: "https://team.example/2" } });
    expect([demoted.status, demoted.json.error]).toEqual([401, "token_revoked"]);
    // removed: the session's next request and the token are refused at once
    expect((await t.request("GET", "/api/links", { token: readOnly.json.token })).status).toBe(200);
    const removed = await t.request("DELETE", `/api/workspaces/${ws}/members/${viewer.user.id}`, { token: ann.token });
    expect(removed.json).toEqual({ success: true });
    expect((await t.request("GET", "/api/links", { token: viewer.token, headers })).status).toBe(404);
    expect((await t.request("GET", "/api/links", { token: readOnly.json.token })).status).toBe(401);
    // and invited back, the old token stays revoked
    await join(ann.token, ws, "viewer", 2, "bob");
    expect((await t.request("GET", "/api/links", { token: readOnly.json.token })).json.error).toBe("token_revoked");
    // anyone may leave
    expect((await t.request("DELETE", `/api/workspaces/${ws}/members/${editor.user.id}`, { token: editor.token })).status).toBe(200);
    expect(
      (await t.request("GET", `/api/workspaces/${ws}/members`, { token: ann.token })).json.map((m: { name: string }) => m.name),
    ).toEqual(["ann", "bob"]);
  });

  test("an invitation stops working once its maker is removed or loses the role that makes it", async () => {
    const ann = await t.telegramUser(1, "ann");
    const ws = await teamOf(ann.token);
    const mal = await join(ann.token, ws, "admin", 2, "mal");
    // two invitations mal keeps back before the owner acts
    const stash = async () =>
      (await t.request("POST", `/api/workspaces/${ws}/invites`, { token: mal.token, body: { role: "admin" } })).json.token as string;
    const [forDemoted, forRemoved, forFriend] = [await stash(), await stash(), await stash()];
    const demoted = await t.request("PATCH", `/api/workspaces/${ws}/members/${mal.user.id}`, {
      token: ann.token,
      body: { role: "viewer" },
    });
    expect(demoted.json.role).toBe("viewer");
    // demoted to viewer: the stashed admin invitation does not raise mal back
    const back = await t.request("POST", "/api/workspaces/join", { token: mal.token, body: { token: forDemoted } });
    expect([back.status, back.json.error]).toEqual([410, "invite_revoked"]);
    expect(back.json.message).toBe("Whoever made this invitation can no longer invite to this team; ask for a new one");
    const mine = (await t.request("GET", "/api/workspaces", { token: mal.token })).json.find((w: { id: number }) => w.id === ws);
    expect(mine.role).toBe("viewer");
    // nor does it let anyone else in
    const friend = await t.telegramUser(3, "friend");
    expect((await t.request("POST", "/api/workspaces/join", { token: friend.token, body: { token: forFriend } })).status).toBe(410);
    expect((await t.request("GET", `/api/workspaces/${ws}/members`, { token: friend.token })).status).toBe(404);
    // removed: nor does one bring mal back in
    expect((await t.request("DELETE", `/api/workspaces/${ws}/members/${mal.user.id}`, { token: ann.token })).status).toBe(200);
    const again = await t.request("POST", "/api/workspaces/join", { token: mal.token, body: { token: forRemoved } });
    expect([again.status, again.json.error]).toEqual([410, "invite_revoked"]);
    expect((await t.request("GET", `/api/workspaces/${ws}/members`, { token: mal.token })).status).toBe(404);
    // the owner's own invitations still work
    await join(ann.token, ws, "editor", 4, "eve");
  });

  test("every write is in the audit log with who, what and the body without secrets; filtered and paged", async () => {
    const ann = await t.telegramUser(1, "ann");
    const ws = await teamOf(ann.token);
    const headers = { "x-workspace": String(ws) };
    const bob = await join(ann.token, ws, "editor", 2, "bob");
    const link = (
      await t.request("POST", "/api/links", { token: bob.token, headers, body: { url: "https://team.example/", password: "hunter22" } })
    ).json;
    await t.request("PATCH", `/api/links/${link.id}`, { token: bob.token, headers, body: { title: "Spring" } });
    await t.request("DELETE", `/api/links/${link.id}`, { token: ann.token, headers });
    // a refused write leaves nothing
    await t.request("POST", "/api/links", { token: bob.token, headers, body: { url: "not a url" } });
    t.clock.advance(1000);
    await t.request("PATCH", `/api/workspaces/${ws}/members/${bob.user.id}`, { token: ann.token, body: { role: "viewer" } });
    const audit = await t.request("GET", `/api/workspaces/${ws}/audit?limit=10`, { token: bob.token });
    expect(audit.status).toBe(200);
    const rows = audit.json.data.map((e: any) => [e.actor.name, e.action, e.subject.type, e.subject.id]);
    expect(rows).toEqual([
      ["ann", "members.role", "member", String(bob.user.id)],
      ["ann", "links.delete", "link", String(link.id)],
      ["bob", "links.update", "link", String(link.id)],
      ["bob", "links.create", "link", String(link.id)],
      ["bob", "members.join", "member", String(bob.user.id)],
      ["ann", "invites.create", "invite", expect.any(String)],
      ["ann", "workspace.create", "workspace", String(ws)],
    ]);
    expect(audit.json.total).toBe(7);
    expect(audit.json.data[0].details).toEqual({ before: { role: "editor" }, after: { role: "viewer" } });
    expect(audit.json.data[3].details.input).toEqual({ url: "https://team.example/", password: "***" });
    const filtered = await t.request("GET", `/api/workspaces/${ws}/audit?action=links&actor=${bob.user.id}&page=2&limit=1`, {
      token: ann.token,
    });
    expect([filtered.json.total, filtered.json.data[0].action]).toEqual([2, "links.create"]);
    const since = new Date(t.clock.now().getTime() - 500).toISOString();
    expect((await t.request("GET", `/api/workspaces/${ws}/audit?from=${since}`, { token: ann.token })).json.total).toBe(1);
    // not a member: 404
    const eve = await t.telegramUser(9, "eve");
    expect((await t.request("GET", `/api/workspaces/${ws}/audit`, { token: eve.token })).status).toBe(404);
  });

  test("a token made before workspaces (no maker) keeps acting in its account's personal workspace", async () => {
    const ann = await t.telegramUser(1, "ann");
    const { apiTokens } = t.deps.asyncDb.tables;
    const secret = "lbt_sk_fromtheoldrelease000000000000";
    await t.deps.asyncDb.insert(apiTokens).values({
      userId: ann.user.id,
      name: "old",
      scopes: ["*"],
      tokenHash: sha256(secret),
      hint: secret.slice(0, 12),
      createdAt: t.clock.now(),
    });
    expect((await t.request("POST", "/api/links", { token: secret, body: { url: "https://old.example/" } })).status).toBe(201);
    expect((await t.request("GET", "/api/links", { token: ann.token })).json).toHaveLength(1);
  });

  test("only an owner deletes a team, and everything in it goes; the last owner stays", async () => {
    const ann = await t.telegramUser(1, "ann");
    const ws = await teamOf(ann.token);
    const admin = await join(ann.token, ws, "admin", 2, "bob");
    const link = await t.request("POST", "/api/links", {
      token: ann.token,
      headers: { "x-workspace": String(ws) },
      body: { url: "https://team.example/" },
    });
    expect((await t.request("DELETE", `/api/workspaces/${ws}`, { token: admin.token })).json.error).toBe("forbidden_role");
    const last = await t.request("PATCH", `/api/workspaces/${ws}/members/${ann.user.id}`, { token: ann.token, body: { role: "admin" } });
    expect([last.status, last.json.error]).toEqual([409, "last_owner"]);
    expect((await t.request("DELETE", `/api/workspaces/${ann.user.id}`, { token: ann.token })).status).toBe(400);
    expect((await t.request("DELETE", `/api/workspaces/${ws}`, { token: ann.token })).json).toEqual({ success: true });
    expect((await t.request("GET", "/api/workspaces", { token: admin.token })).json.map((w: { id: number }) => w.id)).toEqual([
      admin.user.id,
    ]);
    const { links } = t.deps.asyncDb.tables;
    expect(await t.deps.asyncDb.select().from(links)).toEqual([]);
    void link;
  });

  test("deleting a team removes its secure files' bytes from the storage; a member's own files stay", async () => {
    const ann = await t.telegramUser(1, "ann");
    const ws = await teamOf(ann.token);
    async function uploaded(headers: Record<string, string>, name: string) {
      const folder = (await t.request("POST", "/api/secure/folders", { token: ann.token, headers, body: { name } })).json;
      const file = (
        await t.request("POST", "/api/secure/files", {
          token: ann.token,
          headers,
          body: { folderId: folder.id, name, contentType: "file" },
        })
      ).json;
      const form = new FormData();
      form.append("file", new Blob([pngBytes()], { type: "image/png" }), `${name}.png`);
      const up = await t.request("POST", `/api/secure/files/${file.id}/upload`, { token: ann.token, headers, body: form });
      expect(up.status).toBe(200);
      return file.id as number;
    }
    const teamFiles = [await uploaded({ "x-workspace": String(ws) }, "team-a"), await uploaded({ "x-workspace": String(ws) }, "team-b")];
    const ownFile = await uploaded({}, "mine");
    const { secureFiles } = t.deps.asyncDb.tables;
    const rows = await t.deps.asyncDb.select({ id: secureFiles.id, path: secureFiles.storagePath }).from(secureFiles);
    const pathOf = (id: number) => rows.find((r) => r.id === id)!.path!;
    for (const id of [...teamFiles, ownFile]) expect(await t.deps.storage.open(pathOf(id))).not.toBeNull();
    expect((await t.request("DELETE", `/api/workspaces/${ws}`, { token: ann.token })).json).toEqual({ success: true });
    for (const id of teamFiles) expect(await t.deps.storage.open(pathOf(id))).toBeNull();
    expect(await t.deps.storage.open(pathOf(ownFile))).not.toBeNull();
    if (t.deps.storage.driver === "local") {
      // nothing of the team's is left on disk: the storage dir holds the member's own file only
      const dir = joinPath(t.deps.config.dataDir, "secure");
      const left = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      expect(left.map((e) => e.name)).toEqual([pathOf(ownFile).split("/").pop()!]);
    }
  });
});
