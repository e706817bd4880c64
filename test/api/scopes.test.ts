import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { Elysia } from "elysia";
import { createTestApp, type TestApp } from "../helpers/app";
import { authPlugin } from "../../api/shared/auth";
import { endpointScopes } from "../../api/shared/scope-table";
import {
  generateScopesDoc,
  README,
  readmeWithScopes,
  SCOPES_DOC,
  scopesTable,
  WORKSPACES_DOC,
  workspacesWithRoles,
} from "../../scripts/scopes";

let t: TestApp;
beforeAll(() => (t = createTestApp()));
afterAll(() => t.close());

test("docs/scopes.md is the table generated from the app's routes (run `bun run scopes --write` after changing a route)", () => {
  const generated = generateScopesDoc();
  expect(generated).toContain("| GET | `/api/links` | `read:links` | viewer |");
  expect(generated).toContain("| GET | `/api/links/:id/stats` | `read:stats` or `read:links` | viewer |");
  expect(generated).toContain("| POST | `/api/links` | `write:links` | editor |");
  expect(generated).toContain("| POST | `/api/workspaces/:id/invites` | session | admin |");
  expect(generated).toContain("| DELETE | `/api/workspaces/:id` | session | owner |");
  expect(generated).toContain("| POST | `/api/auth/email/verify-otp` | none (public) | – |");
  expect(readFileSync(SCOPES_DOC, "utf8")).toBe(generated);
  // README carries the same table between its scopes markers
  const readme = readFileSync(README, "utf8");
  expect(readmeWithScopes(readme, scopesTable(generated))).toBe(readme);
  // and docs/workspaces.md the role table
  const workspaces = readFileSync(WORKSPACES_DOC, "utf8");
  expect(workspaces).toContain("| `write:links` | editor |");
  expect(workspacesWithRoles(workspaces)).toBe(workspaces);
});

describe("the scope route option in the OpenAPI document", () => {
  test("each authenticated operation carries x-scope and says it in its description; public ones do not", async () => {
    const doc = (await t.request("GET", "/api/docs/json")).json;
    expect(doc.paths["/api/links/{id}/stats"].get).toMatchObject({
      "x-scope": "read:stats or read:links",
      description: "Scope: `read:stats` or `read:links`",
      tags: ["analytics"],
    });
    // send-summary shares its detail object with the reads above and still has its own scope
    expect(doc.paths["/api/links/send-summary"].post["x-scope"]).toBe("write:links");
    expect(doc.paths["/api/tokens"]?.get?.["x-scope"] ?? doc.paths["/api/tokens/"]?.get?.["x-scope"]).toBe("session");
    expect(doc.paths["/api/auth/email/send-otp"].post["x-scope"]).toBeUndefined();
    // every endpoint of the table is in the document with the same scope
    const docScope = (e: { method: string; path: string }) => {
      const p = e.path.replace(/:(\w+)/g, "{$1}");
      return (doc.paths[p] ?? doc.paths[`${p}/`])?.[e.method.toLowerCase()];
    };
    const differs = endpointScopes(t.app.routes)
      .filter((e) => !docScope(e) || (docScope(e)["x-scope"] ?? "") !== e.scope)
      .map((e) => `${e.method} ${e.path}`);
    expect(differs).toEqual([]);
  });

  test("the macro keeps the route's own detail and never changes a detail object shared by routes", async () => {
    const shared = { summary: "Shared", description: "Does things.", tags: ["demo"] };
    const app = new Elysia()
      .use(authPlugin(t.deps))
      .get("/a", () => "a", { scope: "read:links", detail: shared })
      .post("/b", () => "b", { scope: ["read:stats", "read:links"], detail: shared })
      .get("/c", () => "c", { detail: shared });
    expect(shared).toEqual({ summary: "Shared", description: "Does things.", tags: ["demo"] });
    const byPath = Object.fromEntries(app.routes.map((r) => [r.path, r.hooks.detail]));
    expect(byPath["/a"]).toEqual({
      summary: "Shared",
      tags: ["demo"],
      "x-scope": "read:links",
      "x-role": "viewer",
      description: "Does things.\n\nScope: `read:links`",
    });
    expect(byPath["/b"]).toEqual({
      summary: "Shared",
      tags: ["demo"],
      "x-scope": "read:stats or read:links",
      "x-role": "viewer",
      description: "Does things.\n\nScope: `read:stats` or `read:links`",
    });
    expect(byPath["/c"]).toEqual(shared);
    // and the option still authenticates
    expect((await app.handle(new Request("http://localhost/a"))).status).toBe(401);
  });
});

describe("the table tells the truth", () => {
  // a route whose options object was shared with another route loses its `scope` (Elysia deletes the
  // option when it applies the macro) and would turn public silently: public endpoints are listed here
  test("the public /api endpoints are exactly the sign-in ones, the secure public view and request-link uploads", () => {
    const open = endpointScopes(t.app.routes)
      .filter((e) => !e.scope)
      .map((e) => `${e.method} ${e.path}`);
    expect(open).toEqual([
      "POST /api/auth/msgr",
      "POST /api/auth/login-widget",
      "POST /api/auth/refresh",
      "POST /api/auth/logout",
      "POST /api/auth/email/send-otp",
      "POST /api/auth/email/verify-otp",
      "POST /api/auth/passkey/login/options",
      "POST /api/auth/passkey/login/verify",
      "GET /api/secure/view/:code",
      "GET /api/secure/view/:code/stream",
      "GET /api/secure/view/:code/download",
      "POST /api/secure/requests/:code/upload",
    ]);
  });

  const sample = (path: string) =>
    path
      .replace(/:id\b/g, "999999")
      .replace(/:code\b/g, "nosuchcode")
      .replace(/:(\w+)/g, "x");
  const call = (method: string, path: string, token?: string) =>
    t.request(method, sample(path), { token, body: method === "GET" || method === "DELETE" ? undefined : {} });

  test("every endpoint listed with a scope refuses an anonymous caller with 401; public ones never answer 401", async () => {
    const wrong: string[] = [];
    for (const e of endpointScopes(t.app.routes)) {
      const { status } = await call(e.method, e.path);
      if ((status === 401) !== (e.scope !== "")) wrong.push(`${e.method} ${e.path} (${e.scope || "public"}) → ${status}`);
    }
    expect(wrong).toEqual([]);
    // credentials come before validation: an anonymous caller learns nothing from a 400
    expect((await t.request("POST", "/api/links", { body: { url: 42 } })).status).toBe(401);
  });

  test("an API token holding exactly the listed scope gets past the check; one holding another scope gets 403", async () => {
    const { token: session } = await t.telegramUser(4242, "scoper");
    const tokenFor = async (scopes: string[]) =>
      (await t.request("POST", "/api/tokens", { token: session, body: { name: scopes.join(","), scopes } })).json.token as string;
    const tokens = new Map<string, string>();
    const wrong: string[] = [];
    for (const e of endpointScopes(t.app.routes).filter((x) => x.scope)) {
      const needed = e.scope === "session" ? "*" : e.scope.split(" or ")[0]!;
      const other = needed === "read:tracking" ? "read:pixels" : "read:tracking";
      for (const [scope, expectAllowed] of [
        [needed, true],
        [other, false],
      ] as const) {
        if (!tokens.has(scope)) tokens.set(scope, await tokenFor([scope]));
        const { status, json } = await call(e.method, e.path, tokens.get(scope));
        const refused = status === 403 && json?.error === "insufficient_scope";
        if (status === 401 || refused === expectAllowed) wrong.push(`${e.method} ${e.path} with ${scope} → ${status} ${json?.error ?? ""}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
