import { afterEach, beforeEach, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeEach(() => (t = createTestApp()));
afterEach(() => t.close());

async function join(owner: string, ws: number, role: string, tg: number, name: string) {
  const invite = await t.request("POST", `/api/workspaces/${ws}/invites`, { token: owner, body: { role } });
  const person = await t.telegramUser(tg, name);
  expect((await t.request("POST", "/api/workspaces/join", { token: person.token, body: { token: invite.json.token } })).status).toBe(200);
  return person;
}

test("a team's bare prices are in the team's currency (its admins set it), a personal one's in the person's", async () => {
  const ann = await t.telegramUser(1, "ann");
  expect((await t.request("PATCH", "/api/settings", { token: ann.token, body: { currency: "EUR" } })).status).toBe(200);
  const ws = (await t.request("POST", "/api/workspaces", { token: ann.token, body: { name: "Acme" } })).json.id as number;
  const inTeam = (token: string) => ({ token, headers: { "x-workspace": String(ws) } });
  const bob = await join(ann.token, ws, "editor", 2, "bob");
  const cat = await join(ann.token, ws, "admin", 3, "cat");
  // bob reads prices in KZT himself, but what he types in the team is read in the team's currency
  await t.request("PATCH", "/api/settings", { token: bob.token, body: { currency: "KZT" } });
  const price = async (token: string, team: boolean) => {
    const res = await t.request("POST", "/api/placements", {
      ...(team ? inTeam(token) : { token }),
      body: { venue: "Spring", cost: "5000" },
    });
    expect(res.status).toBe(201);
    return res.json.cost;
  };
  // none chosen yet: the team reads prices as its first owner does
  expect(await price(bob.token, true)).toEqual({ amount: 5000, currency: "EUR" });
  // an editor may not set it; an admin may
  const refused = await t.request("PATCH", `/api/workspaces/${ws}`, { token: bob.token, body: { currency: "USD" } });
  expect([refused.status, refused.json.error]).toEqual([403, "forbidden_role"]);
  const set = await t.request("PATCH", `/api/workspaces/${ws}`, { token: cat.token, body: { currency: "rub" } });
  expect([set.status, set.json.name]).toEqual([200, "Acme"]);
  expect(await price(bob.token, true)).toEqual({ amount: 5000, currency: "RUB" });
  expect(await price(ann.token, true)).toEqual({ amount: 5000, currency: "RUB" });
  // each person's own workspace keeps their own
  expect(await price(ann.token, false)).toEqual({ amount: 5000, currency: "EUR" });
  expect(await price(bob.token, false)).toEqual({ amount: 5000, currency: "KZT" });
  const bad = await t.request("PATCH", `/api/workspaces/${ws}`, { token: cat.token, body: { currency: "XYZ" } });
  expect(bad.status).toBe(400);
  // the change is in the team's log once, with before and after
  const audit = (await t.request("GET", `/api/workspaces/${ws}/audit?action=workspace`, { token: ann.token })).json.data;
  expect(audit.map((e: any) => [e.actor.name, e.action, e.details])).toEqual([
    ["cat", "workspace.update", { before: { currency: null }, after: { currency: "RUB" } }],
    ["ann", "workspace.create", { name: "Acme" }],
  ]);
});
