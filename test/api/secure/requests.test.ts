import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  REQUEST_LINK_MAX_BYTES,
  REQUEST_UPLOAD_DEADLINE_MS,
  receiveRequestItem,
  releaseAbandonedUploads,
} from "../../../core/secure/request-items";
import { createTestApp, type TestApp } from "../../helpers/app";
import { pngBytes, seed } from "./helpers";
import { setPlan } from "../../../core/admin/users";

let t: TestApp;
let base: string;
beforeEach(() => {
  t = createTestApp({ env: { SHORT_URL: "https://s.example" } });
  t.app.listen({ hostname: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${t.app.server!.port}`;
});
afterEach(() => {
  t.app.stop();
  t.close();
});

const create = (token: string, body: Record<string, unknown>) => t.request("POST", "/api/secure/requests", { token, body });
/** A public upload over real HTTP, without credentials. */
function sendFile(code: string, bytes: Uint8Array<ArrayBuffer>, name: string) {
  const form = new FormData();
  form.append("file", new Blob([bytes]), name);
  return fetch(`${base}/api/secure/requests/${code}/upload`, { method: "POST", body: form });
}
const sendText = (code: string, text: string) =>
  fetch(`${base}/api/secure/requests/${code}/upload`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ text }),
  });
const storedBytes = (storagePath: string) => new Uint8Array(readFileSync(join(t.dataDir, storagePath)));

describe("request links (owner API)", () => {
  test("create, list, turn off and on, delete; someone else's request or folder is 404", async () => {
    const { token, folder } = await seed(t);
    const made = await create(token, { folderId: folder.id, title: "Tax papers", expiresInHours: 48, maxFiles: 5 });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({
      folderId: folder.id,
      title: "Tax papers",
      maxFiles: 5,
      filesReceived: 0,
      isActive: true,
      state: "active",
    });
    expect(made.json.url).toBe(`https://s.example/r/${made.json.code}`);
    expect(new Date(made.json.expiresAt).getTime()).toBe(t.clock.now().getTime() + 48 * 3600_000);
    const open = await create(token, { folderId: folder.id });
    expect(open.json).toMatchObject({ title: "", expiresAt: null, maxFiles: null });
    expect((await t.request("GET", "/api/secure/requests", { token })).json.map((r: any) => r.id)).toEqual([open.json.id, made.json.id]);
    const off = await t.request("PATCH", `/api/secure/requests/${made.json.id}`, { token, body: { isActive: false } });
    expect(off.json).toMatchObject({ isActive: false, state: "inactive" });

    const eve = await t.telegramUser(77, "eve");
    expect((await t.request("GET", "/api/secure/requests", { token: eve.token })).json).toEqual([]);
    for (const [method, body] of [
      ["PATCH", { isActive: true }],
      ["DELETE", undefined],
    ] as const) {
      const r = await t.request(method, `/api/secure/requests/${made.json.id}`, { token: eve.token, body });
      expect([method, r.status, r.json.error]).toEqual([method, 404, "not_found"]);
    }
    expect((await create(eve.token, { folderId: folder.id })).status).toBe(404);
    expect((await t.request("DELETE", `/api/secure/requests/${made.json.id}`, { token })).json).toEqual({ success: true });
    expect((await sendText(made.json.code, "late")).status).toBe(404);
  });

  test("bad input is 400 naming the field; API tokens need read:secure / write:secure", async () => {
    const { token, folder } = await seed(t);
    for (const [body, field] of [
      [{ folderId: folder.id, maxFiles: 0 }, "maxFiles"],
      [{ folderId: folder.id, expiresInHours: 0 }, "expiresInHours"],
      [{}, "folderId"],
    ] as const) {
      const r = await create(token, body);
      expect([r.status, r.json.details?.[0]?.field]).toEqual([400, field]);
    }
    const readOnly = (await t.request("POST", "/api/tokens", { token, body: { name: "r", scopes: ["read:secure"] } })).json.token;
    expect((await t.request("GET", "/api/secure/requests", { token: readOnly })).status).toBe(200);
    expect((await create(readOnly, { folderId: folder.id })).status).toBe(403);
  });
});

describe("sending through a request link (public)", () => {
  test("multipart and text uploads without credentials land in the folder byte for byte and count on the request", async () => {
    const { token, folder } = await seed(t);
    const r = (await create(token, { folderId: folder.id, title: "Send me", maxFiles: 3 })).json;
    const bytes = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 31) % 251);
    const up = await sendFile(r.code, bytes, "../../scan.bin");
    expect(up.status).toBe(201);
    expect(await up.json()).toEqual({ received: true, kind: "file", name: "scan.bin", size: bytes.length, itemsLeft: 2 });
    const text = await sendText(r.code, "hello from a stranger\nline 2");
    expect(text.status).toBe(201);
    expect(((await text.json()) as any).itemsLeft).toBe(1);

    const files = (
      await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.secureFiles).orderBy(t.deps.asyncDb.tables.secureFiles.id)
    ).filter((f) => f.folderId === folder.id && f.id > 2);
    expect(files).toHaveLength(2);
    expect(storedBytes(files[0]!.storagePath!)).toEqual(bytes);
    expect(files[0]).toMatchObject({ fileName: "scan.bin", fileSize: bytes.length, userId: files[0]!.userId });
    expect(files[1]).toMatchObject({ contentType: "text", textContent: "hello from a stranger\nline 2" });
    const listed = (await t.request("GET", `/api/secure/files?folderId=${folder.id}`, { token })).json.map(
      (f: any) => f.fileName ?? f.name,
    );
    expect(listed).toContain("scan.bin");
    expect((await t.request("GET", "/api/secure/requests", { token })).json[0].filesReceived).toBe(2);
  });

  test("over 10 MB → 413, nothing kept and the slot given back", async () => {
    const { token, folder } = await seed(t);
    const r = (await create(token, { folderId: folder.id, maxFiles: 1 })).json;
    const big = await sendFile(r.code, new Uint8Array(10 * 1024 * 1024 + 1), "big.bin");
    expect([big.status, ((await big.json()) as any).error]).toEqual([413, "too_large"]);
    expect((await t.request("GET", "/api/secure/requests", { token })).json[0].filesReceived).toBe(0);
    expect((await sendFile(r.code, pngBytes(), "ok.png")).status).toBe(201);
  });

  test("410 when turned off, expired or full; unknown code 404", async () => {
    const { token, folder } = await seed(t);
    const full = (await create(token, { folderId: folder.id, maxFiles: 1 })).json;
    expect((await sendText(full.code, "one")).status).toBe(201);
    const again = await sendFile(full.code, pngBytes(), "two.png");
    expect([again.status, ((await again.json()) as any).error]).toEqual([410, "request_full"]);

    const off = (await create(token, { folderId: folder.id })).json;
    await t.request("PATCH", `/api/secure/requests/${off.id}`, { token, body: { isActive: false } });
    const r1 = await sendText(off.code, "x");
    expect([r1.status, ((await r1.json()) as any).error]).toEqual([410, "request_inactive"]);

    const soon = (await create(token, { folderId: folder.id, expiresInHours: 1 })).json;
    t.clock.advance(3600_000);
    const r2 = await sendText(soon.code, "x");
    expect([r2.status, ((await r2.json()) as any).error]).toEqual([410, "request_expired"]);
    expect((await sendText("nosuchcode", "x")).status).toBe(404);
    const page = await fetch(`${base}/r/${soon.code}`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("expired");
  });

  test("with maxFiles 3 and 10 senders at once, exactly 3 get in", async () => {
    const { token, folder } = await seed(t);
    const r = (await create(token, { folderId: folder.id, maxFiles: 3 })).json;
    const statuses = await Promise.all(Array.from({ length: 10 }, (_, i) => sendText(r.code, `item ${i}`).then((x) => x.status)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 410)).toHaveLength(7);
  });

  test("items count toward the owner's plan: past the free plan's 20 files → 403 plan_limit, the slot given back", async () => {
    const { token, folder } = await seed(t); // 2 files already
    const r = (await create(token, { folderId: folder.id, maxFiles: 30 })).json;
    for (let i = 0; i < 18; i++) expect((await sendText(r.code, `n${i}`)).status).toBe(201);
    const over = await sendFile(r.code, pngBytes(), "one-too-many.png");
    expect([over.status, ((await over.json()) as any).error]).toEqual([403, "plan_limit"]);
    expect((await t.request("GET", "/api/secure/requests", { token })).json[0].filesReceived).toBe(18);
  });

  test("uploads are limited per client address: the 31st in an hour is 429", async () => {
    const { token, folder, user } = await seed(t);
    await setPlan(t.deps, user.id, "business");
    const r = (await create(token, { folderId: folder.id })).json;
    for (let i = 0; i < 30; i++) expect((await sendText(r.code, `n${i}`)).status).toBe(201);
    const limited = await sendText(r.code, "one more");
    expect([limited.status, ((await limited.json()) as any).error]).toEqual([429, "rate_limited"]);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    t.clock.advance(3600_000);
    expect((await sendText(r.code, "next hour")).status).toBe(201);
  });

  test("an empty text or a body of another kind is a 400", async () => {
    const { token, folder } = await seed(t);
    const r = (await create(token, { folderId: folder.id })).json;
    const empty = await sendText(r.code, "   ");
    expect([empty.status, ((await empty.json()) as any).details[0].field]).toEqual([400, "text"]);
    const plain = await fetch(`${base}/api/secure/requests/${r.code}/upload`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: "raw",
    });
    expect(plain.status).toBe(415);
    // 512 KB are bytes: 200,000 three-byte characters are 600,000 bytes
    const wide = await sendText(r.code, "中".repeat(200_000));
    expect([wide.status, ((await wide.json()) as any).details[0]]).toEqual([400, { field: "text", message: "must be at most 512 KB" }]);
    expect((await t.request("GET", "/api/secure/requests", { token })).json[0].filesReceived).toBe(0);
  });

  test("the request page says what was refused: an empty text, the owner out of room; never «link not found» or «revoked»", async () => {
    const { token, folder } = await seed(t); // 2 files already
    const r = (await create(token, { folderId: folder.id, maxFiles: 30 })).json;
    const form = { "content-type": "application/x-www-form-urlencoded", "accept-language": "ru-RU,ru;q=0.9" };
    const empty = await fetch(`${base}/r/${r.code}/text`, { method: "POST", headers: form, body: "text=%20%20%20" });
    const emptyPage = await empty.text();
    expect(empty.status).toBe(400);
    expect(emptyPage).toContain("<h1>Ничего не получено</h1>");
    expect(emptyPage).not.toContain("Ссылка не найдена");
    expect(emptyPage).toContain(`href="/r/${r.code}"`);
    for (let i = 0; i < 18; i++) expect((await sendText(r.code, `n${i}`)).status).toBe(201);
    const full = await fetch(`${base}/r/${r.code}/text`, { method: "POST", headers: form, body: "text=hello" });
    const fullPage = await full.text();
    expect(full.status).toBe(403);
    expect(fullPage).toContain("<h1>Ничего не получено</h1>");
    expect(fullPage).toContain("У владельца не осталось места для файлов: ему нужно освободить место, чтобы принять что-то ещё.");
    expect(fullPage).not.toMatch(/отозвал|приостановил/);
  });
});

test("every public secure page sends a strict CSP without scripts, nosniff, no Referer and refuses framing", async () => {
  const { token, folder, text } = await seed(t);
  const r = (await create(token, { folderId: folder.id, title: "<b>x</b>" })).json;
  const l = (await t.request("POST", "/api/secure/links", { token, body: { fileId: text.id, expiresInHours: 1 } })).json;
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const pages = [
    await fetch(`${base}/r/${r.code}`),
    await fetch(`${base}/r/${r.code}/text`, { method: "POST", headers: form, body: "text=hi" }),
    await fetch(`${base}/r/nosuchcode`),
    await fetch(`${base}/s/${l.code}`),
    await fetch(`${base}/s/${l.code}`, { method: "POST", headers: form, body: "" }),
  ];
  expect(pages.map((p) => p.status)).toEqual([200, 201, 404, 200, 200]);
  for (const p of pages) {
    const csp = p.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src ('none'|'self')(;|$)/); // no script from anywhere but the service
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(p.headers.get("x-frame-options")).toBe("DENY");
    expect(p.headers.get("x-content-type-options")).toBe("nosniff");
    expect(p.headers.get("referrer-policy")).toBe("no-referrer");
    expect(p.headers.get("content-type")).toBe("text/html; charset=utf-8");
  }
  expect(await pages[0]!.text()).toContain("&lt;b&gt;x&lt;/b&gt;");
});

describe("a sender who trickles a file", () => {
  test("is cut off with 408 at the deadline, and the slot of a one-file link goes to the next sender", async () => {
    const { token, folder } = await seed(t);
    const r = (await t.request("POST", "/api/secure/requests", { token, body: { folderId: folder.id, maxFiles: 1 } })).json;
    // a stream that sends a few bytes, then nothing more
    const stalled = (async function* () {
      yield new Uint8Array([1, 2, 3]);
      await new Promise(() => {});
    })();
    const started = Date.now();
    await expect(receiveRequestItem(t.deps, r.code, { stream: stalled, fileName: "slow.bin" }, 300)).rejects.toMatchObject({
      status: 408,
      code: "upload_too_slow",
    });
    expect(Date.now() - started).toBeLessThan(3000);
    const next = await t.request("POST", `/api/secure/requests/${r.code}/upload`, { body: { text: "on time" } });
    expect(next.status).toBe(201);
    const files = (await t.request("GET", `/api/secure/files?folderId=${folder.id}`, { token })).json as { name: string }[];
    expect(files.map((f) => f.name).some((n) => n.startsWith("Text received"))).toBe(true);
    expect(files.some((f) => f.name === "slow.bin")).toBe(false);
  });
});

describe("an upload a crash cut off", () => {
  test("its empty file goes and its slot comes back once no upload can still be running; a live one is left alone", async () => {
    const { token, folder } = await seed(t);
    const r = (await t.request("POST", "/api/secure/requests", { token, body: { folderId: folder.id, maxFiles: 1 } })).json;
    // what a process killed mid-upload leaves: the file's row made, its slot taken, no bytes
    const stalled = (async function* () {
      yield new Uint8Array([1, 2, 3]);
      await new Promise(() => {});
    })();
    void receiveRequestItem(t.deps, r.code, { stream: stalled, fileName: "scan.pdf" }, 600_000).catch(() => {});
    const files = async () => (await t.request("GET", `/api/secure/files?folderId=${folder.id}`, { token })).json as { name: string }[];
    for (let i = 0; i < 100 && !(await files()).some((f) => f.name === "scan.pdf"); i++) await Bun.sleep(10);
    expect((await t.request("POST", `/api/secure/requests/${r.code}/upload`, { body: { text: "me too" } })).status).toBe(410);
    // still within the upload deadline: it may be running on some node, so nothing is touched
    expect(await releaseAbandonedUploads(t.deps)).toBe(0);
    t.clock.advance(REQUEST_UPLOAD_DEADLINE_MS + 61_000);
    expect(await releaseAbandonedUploads(t.deps)).toBe(1);
    expect((await files()).map((f) => f.name)).not.toContain("scan.pdf");
    expect((await t.request("GET", "/api/secure/requests", { token })).json[0].filesReceived).toBe(0);
    expect((await t.request("POST", `/api/secure/requests/${r.code}/upload`, { body: { text: "on time" } })).status).toBe(201);
  });
});

describe("a request link's own storage", () => {
  test("takes at most 100 MB in all, whatever the plan has left: past it 413 request_storage_full and nothing kept", async () => {
    const { token, folder } = await seed(t);
    const r = (await t.request("POST", "/api/secure/requests", { token, body: { folderId: folder.id } })).json;
    const row = (await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.secureRequests))[0]!;
    await setPlan(t.deps, row.userId, "business"); // the plan has room: the link's own cap is what stops it
    // what it already received, just under the cap (rows only: the bytes do not matter here)
    await t.deps.asyncDb.insert(t.deps.asyncDb.tables.secureFiles).values({
      userId: row.userId,
      folderId: folder.id,
      name: "big",
      contentType: "file",
      fileSize: REQUEST_LINK_MAX_BYTES - 4,
      requestId: row.id,
    });
    const files = async () => (await t.request("GET", `/api/secure/files?folderId=${folder.id}`, { token })).json as { name: string }[];
    const before = (await files()).length;
    const crossing = await t.request("POST", `/api/secure/requests/${r.code}/upload`, { body: { text: "ten bytes!" } });
    expect([crossing.status, crossing.json.error]).toEqual([413, "request_storage_full"]);
    expect(crossing.json.message).toBe("This request link has received its 100 MB; ask its owner for a new one");
    expect((await files()).length).toBe(before);
    // another request link of the same owner has its own allowance
    const other = (await t.request("POST", "/api/secure/requests", { token, body: { folderId: folder.id } })).json;
    expect((await t.request("POST", `/api/secure/requests/${other.code}/upload`, { body: { text: "fine" } })).status).toBe(201);
  });
});
