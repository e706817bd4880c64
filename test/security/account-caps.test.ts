import { afterEach, beforeEach, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { ACCOUNT_CAPS } from "../../core/accounts/caps";

let t: TestApp;
beforeEach(() => (t = createTestApp({ env: { PLAN_LIMITS: JSON.stringify({ free: { secureFiles: 5 } }) } })));
afterEach(() => t.close());

test("folders, custom domains, request links and share links are capped per account: 403 account_cap, nothing added", async () => {
  const { user, token } = await t.telegramUser();
  const db = t.deps.asyncDb;
  const folder = (await t.request("POST", "/api/secure/folders", { token, body: { name: "Box" } })).json;
  const file = (
    await t.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "n", contentType: "text", textContent: "x" } })
  ).json;
  const fill = async <T extends object>(table: keyof typeof ACCOUNT_CAPS, have: number, row: (i: number) => T) => {
    const rows = Array.from({ length: ACCOUNT_CAPS[table].max - have }, (_, i) => row(i));
    for (let i = 0; i < rows.length; i += 500) await db.insert(db.tables[table] as never).values(rows.slice(i, i + 500) as never);
  };
  await fill("secureFolders", 1, (i) => ({ userId: user.id, name: `f${i}` }));
  await fill("domains", 0, (i) => ({ userId: user.id, hostname: `d${i}.example.org` }));
  await fill("secureRequests", 0, (i) => ({ userId: user.id, folderId: folder.id, code: `req${i}` }));
  await fill("secureLinks", 0, (i) => ({ userId: user.id, fileId: file.id, code: `shr${i}`, expiresAt: new Date(Date.now() + 3600_000) }));
  const tries: [string, string, Record<string, unknown>, string][] = [
    ["/api/secure/folders", "secureFolders", { name: "one more" }, "500 folders"],
    ["/api/domains", "domains", { hostname: "go.more.example" }, "20 custom domains"],
    ["/api/secure/requests", "secureRequests", { folderId: folder.id }, "200 request links"],
    ["/api/secure/links", "secureLinks", { fileId: file.id, expiresInHours: 1 }, "5000 share links"],
  ];
  for (const [path, table, body, words] of tries) {
    const res = await t.request("POST", path, { token, body });
    expect([path, res.status, res.json.error]).toEqual([path, 403, "account_cap"]);
    expect(res.json.message).toContain(`An account holds at most ${words}`);
    const rows = await db.select().from(db.tables[table as keyof typeof ACCOUNT_CAPS] as never);
    expect([path, (rows as unknown[]).length]).toEqual([path, ACCOUNT_CAPS[table as keyof typeof ACCOUNT_CAPS].max]);
  }
  // another account is not affected
  const other = await t.telegramUser(7, "other");
  expect((await t.request("POST", "/api/secure/folders", { token: other.token, body: { name: "Mine" } })).status).toBe(201);
});
