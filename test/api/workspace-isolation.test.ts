import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { FAKE_BOT_TOKEN, FakeBotApi } from "../helpers/fake-bot-api";
import { teamWithEverything, type FamilyIds } from "../helpers/workspace-team";

// every operation with an id, called by several outsiders: more than bun's 5 s default
setDefaultTimeout(120_000);

/**
 * Isolation between workspaces, generated over the served OpenAPI document as the fuzzer is: a team
 * workspace holds one thing of every family; every operation whose path names an id is called with
 * that thing's id, with a valid body built from the operation's own schema, by callers outside the
 * workspace. Each must answer 404, as for anything of another account.
 */

type Schema = Record<string, any>;
type Operation = { requestBody?: { content: Record<string, { schema: Schema }> }; "x-scope"?: string };

/** Paths that act on the person, not a workspace (their sign-in identities and passkeys), or are public by code. */
const NOT_WORKSPACE = [/^\/api\/auth\//, /\{code\}/];
/** Families no API call makes (a Telegram join request): an unknown id is all an outsider can try. */
const UNSEEDED = ["/api/requests"];

let t: TestApp;
let fake: FakeBotApi;
let doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
let team: Awaited<ReturnType<typeof teamWithEverything>>;
let owner: string;

beforeAll(async () => {
  fake = new FakeBotApi().start().addChat({ id: -1001, type: "channel", title: "Team", username: "teamchan" });
  fake.members.set("-1001:42", { status: "creator" });
  t = createTestApp({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } });
  owner = (await t.telegramUser(42, "ann")).token;
  team = await teamWithEverything(t, owner);
  doc = (await t.request("GET", "/api/docs/json")).json;
});
afterAll(async () => {
  t.close();
  await fake.stop();
});

const resolve = (s: Schema): Schema => (s?.$ref ? doc.components.schemas[s.$ref.split("/").pop()!]! : s);

/** The smallest value a schema accepts (the first listed word, a URL for a URL, the minimum…). */
function sample(schema: Schema): unknown {
  const s = resolve(schema);
  if (s.anyOf) return sample(s.anyOf.find((x: Schema) => x.type !== "null") ?? s.anyOf[0]);
  const words = s.enum ?? s["x-enum"];
  if (words?.length) return words[0];
  if (s.const !== undefined) return s.const;
  switch (s.type) {
    case "object":
      return Object.fromEntries((s.required ?? []).map((k: string) => [k, sample(s.properties[k])]));
    case "array":
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items));
    case "integer":
    case "number":
      return Math.max(1, s.minimum ?? 1);
    case "boolean":
      return false;
    default:
      if (s["x-format"] === "uri") return "https://example.com/x";
      if (s.format === "date-time") return "2030-01-01T00:00:00Z";
      return "x".repeat(Math.max(1, s.minLength ?? 1));
  }
}

/** The path with each `{param}` replaced by the id of the family the path names before it. */
function pathWith(path: string, ids: FamilyIds): string | null {
  let out = path;
  for (const m of path.matchAll(/\{(\w+)\}/g)) {
    const prefix = path.slice(0, m.index! - 1);
    const family = Object.keys(ids)
      .filter((f) => prefix === f || prefix.endsWith(f))
      .sort((a, b) => b.length - a.length)[0];
    const id = family ? ids[family] : UNSEEDED.some((u) => prefix.startsWith(u)) ? 1 : undefined;
    if (id === undefined) return null;
    out = out.replace(m[0], String(id));
  }
  return out;
}

function operations() {
  const ops: { method: string; path: string; body?: unknown }[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (!path.includes("{") || NOT_WORKSPACE.some((r) => r.test(path))) continue;
    for (const [method, op] of Object.entries(methods)) {
      if (!op["x-scope"]) continue;
      const content = op.requestBody?.content;
      const json = content?.["application/json"]?.schema;
      const form = content?.["multipart/form-data"]?.schema;
      ops.push({ method: method.toUpperCase(), path, body: json ? sample(json) : form ? undefined : undefined });
    }
  }
  return ops;
}

test("every operation naming an id of a team's thing answers 404 to everyone outside the team", async () => {
  const ops = operations();
  // every family of the contract is reached: the generated list is not quietly empty
  expect(ops.length).toBeGreaterThan(50);
  const bob = (await t.telegramUser(77, "bob")).token;
  const bobTeam = (await t.request("POST", "/api/workspaces", { token: bob, body: { name: "Bob's" } })).json.id;
  const ownerPersonalToken = (await t.request("POST", "/api/tokens", { token: owner, body: { name: "mine" } })).json.token;
  const callers: [string, { token: string; headers?: Record<string, string> }, (path: string) => boolean][] = [
    ["another person", { token: bob }, () => true],
    ["another person in their own team", { token: bob, headers: { "x-workspace": String(bobTeam) } }, () => true],
    ["another person naming the team", { token: bob, headers: team.headers }, () => true],
    // the team's own owner acting in their personal workspace: the team's things are not there
    // (the workspace routes name their workspace in the path, where she is a member)
    ["the owner in her personal workspace", { token: owner }, (path) => !path.startsWith("/api/workspaces/")],
    ["the owner's personal API token", { token: ownerPersonalToken }, () => true],
  ];
  const wrong: string[] = [];
  for (const op of ops) {
    const path = pathWith(op.path, team.ids);
    if (!path) {
      wrong.push(`${op.method} ${op.path}: no thing of its family was made`);
      continue;
    }
    for (const [who, creds, applies] of callers) {
      if (!applies(op.path)) continue;
      const res = await t.request(op.method, path, { ...creds, body: op.body });
      if (res.status !== 404) wrong.push(`${op.method} ${path} by ${who} → ${res.status} ${res.json?.error ?? ""}`);
    }
  }
  expect(wrong).toEqual([]);
  // and the owner acting in the team reaches them (the ids are right)
  const readable = Object.keys(team.ids).filter((family) => doc.paths[`${family}/{id}`]?.get);
  expect(readable.length).toBeGreaterThan(6);
  for (const family of readable)
    expect((await t.request("GET", `${family}/${team.ids[family]}`, { token: owner, headers: team.headers })).status, family).toBe(200);
});
