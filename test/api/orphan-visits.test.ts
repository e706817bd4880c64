import { afterEach, beforeEach, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { ORPHAN_CODES_PER_DAY, pruneOrphanVisits } from "../../core/redirect/orphans";
import { JOBS } from "../../jobs";
import { addVerifiedDomain } from "../helpers/domains";
import { eventually } from "../helpers/eventually";

let t: TestApp;
let alice: string;
let bob: string;
beforeEach(async () => {
  t = createTestApp({ env: { PRIVACY_IP: "full" } });
  alice = (await t.telegramUser(42, "alice")).token;
  bob = (await t.telegramUser(43, "bob")).token;
});
afterEach(() => t.close());

async function link(token: string, body: Record<string, unknown>) {
  const res = await t.request("POST", "/api/links", { token, body });
  expect(res.status).toBe(201);
  return res.json as { id: number; code: string };
}
const dayRows = () => t.deps.asyncDb.select().from(t.deps.asyncDb.tables.orphanVisitDays);
const storedVisits = async () => (await dayRows()).reduce((n, r) => n + r.visits, 0);
/**
 * A visit; a 404 is recorded in the background after the answer, so this waits until it is stored
 * (`owned: false`: a visit nobody may see, which is not stored at all).
 */
const visit = async (code: string, host = "localhost", owned = true) => {
  const before = await storedVisits();
  const res = await t.request("GET", `/${code}`, {
    headers: { host, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0", "x-forwarded-for": "203.0.113.5" },
  });
  if (res.status === 404 && owned)
    await eventually(async () => (await storedVisits()) > before, `the orphan visit of /${code} to be stored`);
  return res;
};
const orphans = async (token: string, query = "") => {
  const res = await t.request("GET", `/api/orphan-visits${query}`, { token });
  expect(res.status).toBe(200);
  return res.json as { total: number; items: { code: string; count: number; lastAt: string }[] };
};

test("disabled and deleted links and codes under the user's domains are the user's orphan visits; nobody else sees them", async () => {
  const live = await link(alice, { url: "https://live.example/", code: "alive" });
  const off = await link(alice, { url: "https://off.example/", code: "paused" });
  const gone = await link(alice, { url: "https://gone.example/", code: "deleted-one" });
  const bobsOff = await link(bob, { url: "https://bob.example/", code: "bob-off" });
  expect((await addVerifiedDomain(t, alice, "go.alice.example")).verified).toBe(true);
  await t.request("PATCH", `/api/links/${off.id}`, { token: alice, body: { is_active: false } });
  await t.request("PATCH", `/api/links/${bobsOff.id}`, { token: bob, body: { is_active: false } });
  expect((await t.request("DELETE", `/api/links/${gone.id}`, { token: alice })).status).toBe(200);

  expect((await visit("alive")).status).toBe(302); // a live link is no orphan
  expect((await visit("paused")).status).toBe(404);
  t.clock.advance(1000);
  expect((await visit("paused")).status).toBe(404);
  expect((await visit("deleted-one")).status).toBe(404);
  expect((await visit("typo-code", "go.alice.example")).status).toBe(404);
  expect((await visit("alive", "go.alice.example")).status).toBe(404); // alive is not on that domain
  expect((await visit("never-existed", "localhost", false)).status).toBe(404); // the service's own host: nobody's
  expect((await visit("bob-off")).status).toBe(404);

  const mine = await orphans(alice);
  expect(mine.total).toBe(5);
  expect(mine.items).toEqual([
    { code: "paused", count: 2, lastAt: t.clock.now().toISOString() },
    { code: "alive", count: 1, lastAt: t.clock.now().toISOString() },
    { code: "deleted-one", count: 1, lastAt: t.clock.now().toISOString() },
    { code: "typo-code", count: 1, lastAt: t.clock.now().toISOString() },
  ]);
  expect(await orphans(bob)).toEqual({ total: 1, items: [{ code: "bob-off", count: 1, lastAt: t.clock.now().toISOString() }] });
  expect(live.code).toBe("alive");

  // counts per owner, code, host and day; nothing about the visitor, and nothing nobody may see
  const rows = await dayRows();
  expect(rows.map((r) => [r.code, r.host, r.visits]).sort()).toEqual([
    ["alive", "go.alice.example", 1],
    ["bob-off", "localhost", 1],
    ["deleted-one", "localhost", 1],
    ["paused", "localhost", 2],
    ["typo-code", "go.alice.example", 1],
  ]);
  expect(Object.keys(rows[0]!).sort()).toEqual(["code", "day", "host", "lastAt", "userId", "visits"]);
  expect(JSON.stringify(rows).includes("203.0.113.5")).toBe(false);
});

test("a deleted code taken again by someone else answers for them; their disabled link's visits are theirs", async () => {
  const gone = await link(alice, { url: "https://gone.example/", code: "reused" });
  await t.request("DELETE", `/api/links/${gone.id}`, { token: alice });
  expect((await visit("reused")).status).toBe(404);
  const again = await link(bob, { url: "https://bob.example/", code: "reused" });
  expect((await visit("reused")).status).toBe(302);
  await t.request("PATCH", `/api/links/${again.id}`, { token: bob, body: { is_active: false } });
  expect((await visit("reused")).status).toBe(404);
  expect((await orphans(alice)).items).toEqual([{ code: "reused", count: 1, lastAt: expect.any(String) }]);
  expect((await orphans(bob)).items).toEqual([{ code: "reused", count: 1, lastAt: expect.any(String) }]);
});

test("period, scope and errors", async () => {
  const off = await link(alice, { url: "https://off.example/", code: "paused" });
  await t.request("PATCH", `/api/links/${off.id}`, { token: alice, body: { is_active: false } });
  await visit("paused");
  t.clock.advance(2 * 86_400_000);
  await visit("paused");
  expect((await orphans(alice, "?period=1d")).total).toBe(1);
  expect((await orphans(alice, "?period=7d")).items).toEqual([{ code: "paused", count: 2, lastAt: t.clock.now().toISOString() }]);
  expect((await orphans(alice)).total).toBe(2); // default 30d
  t.clock.advance(31 * 86_400_000);
  alice = (await t.telegramUser(42, "alice")).token; // a fresh session a month later
  expect(await orphans(alice)).toEqual({ total: 0, items: [] });
  expect((await orphans(alice, "?period=all")).total).toBe(2);

  const bad = await t.request("GET", "/api/orphan-visits?period=week", { token: alice });
  expect(bad.status).toBe(400);
  expect(bad.json.details[0].field).toBe("period");
  expect((await t.request("GET", "/api/orphan-visits")).status).toBe(401);
  const tokenFor = async (scopes: string[]) =>
    (await t.request("POST", "/api/tokens", { token: alice, body: { name: scopes.join(","), scopes } })).json.token as string;
  expect((await t.request("GET", "/api/orphan-visits", { token: await tokenFor(["read:links"]) })).status).toBe(403);
  expect((await t.request("GET", "/api/orphan-visits?period=all", { token: await tokenFor(["read:stats"]) })).json.total).toBe(2);
});

test("a scan of random codes under a user's domain adds to counts, not rows; past the daily cap they count as *; old days are pruned", async () => {
  expect((await addVerifiedDomain(t, alice, "go.alice.example")).verified).toBe(true);
  for (let i = 0; i < 3; i++) await visit(`scan-${i % 2}`, "go.alice.example");
  expect((await dayRows()).map((r) => [r.code, r.visits]).sort()).toEqual([
    ["scan-0", 2],
    ["scan-1", 1],
  ]);
  // fill the day's distinct codes up to the cap; further codes count under "*"
  const day = (await dayRows())[0]!.day;
  const aliceId = (await dayRows())[0]!.userId;
  await t.deps.asyncDb.insert(t.deps.asyncDb.tables.orphanVisitDays).values(
    Array.from({ length: ORPHAN_CODES_PER_DAY - 2 }, (_, i) => ({
      userId: aliceId,
      day,
      code: `filler-${i}`,
      host: "go.alice.example",
      visits: 1,
      lastAt: day,
    })),
  );
  await visit("one-more", "go.alice.example");
  await visit("and-another", "go.alice.example");
  await visit("scan-1", "go.alice.example"); // a code the day already holds still counts as itself
  const rows = await dayRows();
  expect(rows).toHaveLength(ORPHAN_CODES_PER_DAY + 1);
  expect(
    rows
      .filter((r) => ["*", "scan-1"].includes(r.code))
      .map((r) => [r.code, r.host, r.visits])
      .sort(),
  ).toEqual([
    ["*", "", 2],
    ["scan-1", "go.alice.example", 2],
  ]);
  expect((await orphans(alice)).total).toBe(6 + ORPHAN_CODES_PER_DAY - 2);
  t.clock.advance(399 * 86_400_000);
  expect(await pruneOrphanVisits(t.deps)).toBe(0);
  t.clock.advance(2 * 86_400_000);
  expect(await pruneOrphanVisits(t.deps)).toBe(ORPHAN_CODES_PER_DAY + 1);
  expect(JOBS.find((j) => j.name === "prune-orphan-visits")?.run).toBe(pruneOrphanVisits);
});
