/**
 * Custom domains need proof of control: a DNS TXT record, looked up through DNS_SERVERS (a real
 * DNS server on loopback here). Unverified domains serve nothing; the first account to verify owns
 * the hostname.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { startDnsServer } from "../helpers/dns-server";
import { loadConfig } from "../../config";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let t: TestApp;
beforeAll(async () => (dns = await startDnsServer()));
afterAll(() => dns.close());
beforeEach(() => (t = createTestApp({ env: { DNS_SERVERS: dns.address } })));
afterEach(() => t.close());

const add = (token: string, hostname: string) => t.request("POST", "/api/domains", { token, body: { hostname } });
const verify = (token: string, id: number) => t.request("POST", `/api/domains/${id}/verify`, { token });
const visit = (code: string, host: string) => t.request("GET", `/${code}`, { headers: { host, "user-agent": CHROME } });

describe("custom domain verification", () => {
  test("added unverified with a TXT challenge; serves a 404 page until the record is published and verified", async () => {
    const { token } = await t.telegramUser();
    const d = await add(token, "go.brand.example");
    expect(d.status).toBe(201);
    expect(d.json).toEqual({
      id: expect.any(Number),
      hostname: "go.brand.example",
      verified: false,
      verifiedAt: null,
      createdAt: t.clock.now().toISOString(),
      verification: {
        type: "TXT",
        name: "_linkbot-challenge.go.brand.example",
        value: expect.stringMatching(/^linkbot-verify=[0-9a-f]{32}$/),
      },
    });
    // a link cannot be put on it yet, and a plain link is not served on that host
    const onIt = await t.request("POST", "/api/links", { token, body: { url: "https://brand.example/", domain_id: d.json.id } });
    expect([onIt.status, onIt.json.details[0].field]).toEqual([400, "domain_id"]);
    const plain = (await t.request("POST", "/api/links", { token, body: { url: "https://brand.example/" } })).json;
    const page = await visit(plain.code, "go.brand.example");
    expect(page.status).toBe(404);
    expect(page.text).toContain("Link not found");

    // no record yet, then a wrong one: 409 verification_failed naming what to publish
    const missing = await verify(token, d.json.id);
    expect([missing.status, missing.json.error]).toEqual([409, "verification_failed"]);
    expect(missing.json.message).toContain(d.json.verification.value);
    dns.setTxt("_linkbot-challenge.go.brand.example", "linkbot-verify=0000", "v=spf1 -all");
    const wrong = await verify(token, d.json.id);
    expect([wrong.status, wrong.json.error]).toEqual([409, "verification_failed"]);
    expect(wrong.json.message).toContain('"linkbot-verify=0000"');

    dns.setTxt("_linkbot-challenge.go.brand.example", "v=spf1 -all", d.json.verification.value);
    const ok = await verify(token, d.json.id);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ id: d.json.id, hostname: "go.brand.example", verified: true, verifiedAt: t.clock.now().toISOString() });
    expect(dns.asked).toContain("_linkbot-challenge.go.brand.example");
    expect((await t.request("GET", "/api/domains", { token })).json).toEqual([ok.json]);

    // now links live there
    const l = (await t.request("POST", "/api/links", { token, body: { url: "https://brand.example/", domain_id: d.json.id } })).json;
    expect(l.trackingUrl).toBe(`http://go.brand.example/${l.code}`);
    const there = await visit(l.code, "go.brand.example");
    expect([there.status, there.headers.get("location")]).toEqual([302, "https://brand.example/"]);
  });

  test("a squatter's earlier claim does not lock out the owner: the first to verify owns it, later ones get 409 domain_taken", async () => {
    const squatter = await t.telegramUser(1, "squatter");
    const owner = await t.telegramUser(2, "owner");
    const late = await t.telegramUser(3, "late");
    const squat = await add(squatter.token, "go.brand.example");
    expect(squat.status).toBe(201);
    const mine = await add(owner.token, "go.brand.example");
    expect(mine.status).toBe(201);
    expect(mine.json.verification.value).not.toBe(squat.json.verification.value);
    // the owner controls DNS and publishes their own value only
    dns.setTxt("_linkbot-challenge.go.brand.example", mine.json.verification.value);
    expect((await verify(squatter.token, squat.json.id)).json.error).toBe("verification_failed");
    expect((await verify(owner.token, mine.json.id)).json.verified).toBe(true);
    // even publishing both values later does not hand it over
    dns.setTxt("_linkbot-challenge.go.brand.example", mine.json.verification.value, squat.json.verification.value);
    const taken = await verify(squatter.token, squat.json.id);
    expect([taken.status, taken.json.error]).toEqual([409, "domain_taken"]);
    const claimAgain = await add(late.token, "go.brand.example");
    expect([claimAgain.status, claimAgain.json.error]).toEqual([409, "domain_taken"]);
    // visits to dead codes on the hostname belong to the verified owner only, never to a mere claim
    await visit("typo-code", "go.brand.example");
    const orphans = async (token: string) => (await t.request("GET", "/api/orphan-visits", { token })).json.total;
    expect([await orphans(owner.token), await orphans(squatter.token)]).toEqual([1, 0]);
    // someone else's domain id is unknown (404)
    expect((await verify(squatter.token, mine.json.id)).status).toBe(404);
    // once the owner deletes it, the hostname is free again
    expect((await t.request("DELETE", `/api/domains/${mine.json.id}`, { token: owner.token })).status).toBe(200);
    expect((await verify(squatter.token, squat.json.id)).json.verified).toBe(true);
  });

  test("an unreachable resolver is a clear 409, not a hang or a 500", async () => {
    const dead = createTestApp({ env: { DNS_SERVERS: "127.0.0.1:9" } });
    try {
      const { token } = await dead.telegramUser();
      const d = (await dead.request("POST", "/api/domains", { token, body: { hostname: "go.brand.example" } })).json;
      const res = await dead.request("POST", `/api/domains/${d.id}/verify`, { token });
      expect([res.status, res.json.error]).toEqual([409, "verification_failed"]);
      expect(res.json.message).toContain("Could not look up");
    } finally {
      dead.close();
    }
  }, 20_000);

  test("DNS_SERVERS is validated: comma-separated ip:port", () => {
    const dir = mkdtempSync(join(tmpdir(), "linkbot-dns-"));
    expect(loadConfig({ DATA_DIR: dir, DNS_SERVERS: "1.1.1.1:53, [2606:4700::1111]:53,9.9.9.9" }).dnsServers).toEqual([
      "1.1.1.1:53",
      "[2606:4700::1111]:53",
      "9.9.9.9",
    ]);
    expect(loadConfig({ DATA_DIR: dir }).dnsServers).toBeNull();
    for (const bad of ["dns.google", "1.1.1.1:99999", "1.1.1:53", "1.1.1.1;8.8.8.8"])
      expect(() => loadConfig({ DATA_DIR: dir, DNS_SERVERS: bad })).toThrow(/^DNS_SERVERS: /);
  });
});

describe("domains added before verification existed", () => {
  test("the migration gives each its own random challenge and leaves it unverified", async () => {
    const { databaseBefore } = await import("../helpers/migrations");
    const { createDb } = await import("../../db/client");
    const dir = mkdtempSync(join(tmpdir(), "linkbot-migrate-domains-"));
    const path = join(dir, "app.db");
    const old = databaseBefore("0012_security", path);
    old.exec("insert into users (id, created_at) values (1, 0), (2, 0)");
    old.exec("insert into domains (user_id, hostname, created_at) values (1, 'go.one.example', 0), (2, 'go.two.example', 0)");
    old.close();
    const { sqlite, close } = createDb(path);
    try {
      const rows = sqlite
        .query("select hostname, verification_token as token, verified_at as verifiedAt from domains order by id")
        .all() as { token: string; verifiedAt: number | null }[];
      expect(rows.map((r) => r.verifiedAt)).toEqual([null, null]);
      for (const r of rows) expect(r.token).toMatch(/^[0-9a-f]{32}$/);
      expect(rows[0]!.token).not.toBe(rows[1]!.token);
    } finally {
      close();
    }
  });
});

describe("account merge", () => {
  test("a hostname both accounts added folds into the survivor's row, keeping the verification and the links", async () => {
    const { mergeAccounts } = await import("../../core/accounts/merge");
    const { addVerifiedDomain } = await import("../helpers/domains");
    const a = await t.telegramUser(1, "a");
    const b = await t.emailUser("b@example.com");
    await add(a.token, "go.brand.example"); // unverified on the survivor
    const bd = await addVerifiedDomain(t, b.token, "go.brand.example");
    await addVerifiedDomain(t, b.token, "go.other.example");
    const l = (await t.request("POST", "/api/links", { token: b.token, body: { url: "https://brand.example/", domain_id: bd.id } })).json;
    await mergeAccounts(t.deps, b.user.id, a.user.id);
    const mine = (await t.request("GET", "/api/domains", { token: a.token })).json as { hostname: string; verified: boolean; id: number }[];
    expect(mine.map((d) => [d.hostname, d.verified])).toEqual([
      ["go.brand.example", true],
      ["go.other.example", true],
    ]);
    const link = (await t.request("GET", `/api/links/${l.id}`, { token: a.token })).json;
    expect(link.domain_id).toBe(mine[0]!.id);
    expect((await visit(l.code, "go.brand.example")).status).toBe(302);
  });
});

describe("daily re-verification", () => {
  test("a verified domain whose record is gone at three checks in a week loses its verification; its owner is told; a record found again clears the count", async () => {
    const { reverifyDomains } = await import("../../core/catalog/domains");
    const { token } = await t.telegramUser(42, "alice");
    const d = (await add(token, "go.sold.example")).json;
    dns.setTxt("_linkbot-challenge.go.sold.example", d.verification.value);
    expect((await verify(token, d.id)).json.verified).toBe(true);
    const link = (await t.request("POST", "/api/links", { token, body: { url: "https://brand.example/", domain_id: d.id } })).json;
    expect((await visit(link.code, "go.sold.example")).status).toBe(302);

    dns.setTxt("_linkbot-challenge.go.sold.example", "someone else's now");
    expect(await reverifyDomains(t.deps)).toEqual([]);
    t.clock.advance(86_400_000);
    expect(await reverifyDomains(t.deps)).toEqual([]);
    // the record is back for a day: the failures so far are forgotten
    dns.setTxt("_linkbot-challenge.go.sold.example", d.verification.value);
    t.clock.advance(86_400_000);
    expect(await reverifyDomains(t.deps)).toEqual([]);
    dns.setTxt("_linkbot-challenge.go.sold.example", "someone else's now");
    for (let day = 0; day < 2; day++) {
      t.clock.advance(86_400_000);
      expect(await reverifyDomains(t.deps)).toEqual([]);
    }
    t.clock.advance(86_400_000);
    expect(await reverifyDomains(t.deps)).toEqual(["go.sold.example"]);
    const fresh = (await t.telegramUser(42, "alice")).token;
    expect((await t.request("GET", "/api/domains", { token: fresh })).json[0]).toMatchObject({
      hostname: "go.sold.example",
      verified: false,
    });
    expect((await visit(link.code, "go.sold.example")).status).toBe(404);
    const told = (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.outbox)).filter((r) => r.topic === "notice");
    expect(told.map((r) => r.target)).toEqual(["42"]);
    expect((told[0]!.payload as { text: string }).text).toStartWith(
      "⚠️ Your domain go.sold.example no longer has its TXT record at _linkbot-challenge.go.sold.example, so its links no longer open there.",
    );
  });
});
