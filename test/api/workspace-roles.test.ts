import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { FAKE_BOT_TOKEN, FakeBotApi } from "../helpers/fake-bot-api";
import { teamWithEverything } from "../helpers/workspace-team";
import { endpointScopes } from "../../api/shared/scope-table";
import { ROLES, roleAtLeast, type Role } from "../../core/tokens/roles";

// every endpoint, once per role
setDefaultTimeout(180_000);

let t: TestApp;
let fake: FakeBotApi;
let team: Awaited<ReturnType<typeof teamWithEverything>>;
const members = new Map<Role, string>();

beforeAll(async () => {
  fake = new FakeBotApi().start().addChat({ id: -1001, type: "channel", title: "Team", username: "teamchan" });
  fake.members.set("-1001:42", { status: "creator" });
  t = createTestApp({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } });
  const owner = (await t.telegramUser(42, "ann")).token;
  team = await teamWithEverything(t, owner);
  members.set("owner", owner);
  let tg = 100;
  for (const role of ["admin", "editor", "viewer"] as const) {
    const invite = await t.request("POST", `/api/workspaces/${team.ws}/invites`, { token: owner, body: { role } });
    expect(invite.status).toBe(201);
    const { token } = await t.telegramUser(++tg, role);
    expect((await t.request("POST", "/api/workspaces/join", { token, body: { token: invite.json.token } })).json.role).toBe(role);
    members.set(role, token);
  }
});
afterAll(async () => {
  t.close();
  await fake.stop();
});

/** The path with its ids replaced by the team's things (unknown ids stay unknown: the role is checked first). */
function sample(path: string): string {
  return path
    .replace(/^\/api\/workspaces\/:id/, `/api/workspaces/${team.ws}`)
    .replace(/:user_id\b/, "999999")
    .replace(/:id\b/g, "999999")
    .replace(/:code\b/g, "nosuchcode");
}

test("each role against each endpoint: refused with 403 forbidden_role exactly when the role is below the endpoint's", async () => {
  const endpoints = endpointScopes(t.app.routes).filter((e) => e.role && !e.path.startsWith("/api/auth/"));
  expect(endpoints.length).toBeGreaterThan(90);
  const wrong: string[] = [];
  for (const role of ROLES) {
    for (const e of endpoints) {
      // deleting the workspace or leaving it would end the test's own team: they have their own test
      if (e.method === "DELETE" && e.path.startsWith("/api/workspaces/:id")) continue;
      const res = await t.request(e.method, sample(e.path), {
        token: members.get(role),
        headers: team.headers,
        body: e.method === "GET" || e.method === "DELETE" ? undefined : {},
      });
      const refused = res.status === 403 && res.json?.error === "forbidden_role";
      const allowed = roleAtLeast(role, e.role as Role);
      if (refused === allowed) wrong.push(`${role} ${e.method} ${e.path} (needs ${e.role}) → ${res.status} ${res.json?.error ?? ""}`);
    }
  }
  expect(wrong).toEqual([]);
});

test("the role table in action: a viewer reads and exports but changes nothing; an editor changes; an admin manages people", async () => {
  const as = (role: Role) => ({ token: members.get(role)!, headers: team.headers });
  const link = `/api/links/${team.ids["/api/links"]}`;
  expect((await t.request("GET", link, as("viewer"))).status).toBe(200);
  expect((await t.request("PATCH", link, { ...as("viewer"), body: { title: "x" } })).json.error).toBe("forbidden_role");
  expect((await t.request("PATCH", link, { ...as("editor"), body: { title: "Spring" } })).json.title).toBe("Spring");
  expect((await t.request("POST", "/api/links", { ...as("editor"), body: { url: "https://team.example/b" } })).status).toBe(201);
  // a viewer's export is refused for want of clicks, not for the role
  const exported = await t.request("POST", `${link}/export`, { ...as("viewer"), body: { format: "csv" } });
  expect(exported.status).toBe(200);
  expect(exported.json.ok).toBe(false);
  // people are an admin's
  expect((await t.request("POST", `/api/workspaces/${team.ws}/invites`, { ...as("editor"), body: { role: "viewer" } })).json.error).toBe(
    "forbidden_role",
  );
  expect((await t.request("POST", `/api/workspaces/${team.ws}/invites`, { ...as("admin"), body: { role: "viewer" } })).status).toBe(201);
  expect((await t.request("DELETE", `/api/workspaces/${team.ws}`, as("admin"))).json.error).toBe("forbidden_role");
});
