import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { createTestApp, type TestApp } from "../../helpers/app";
import { link, pngBytes, seed, upload } from "./helpers";

let t: TestApp;
beforeEach(() => (t = createTestApp({ env: { PLAN_LIMITS: JSON.stringify({ free: { secureFiles: 3, storageMB: 1 } }) } })));
afterEach(() => t.close());

describe("folders", () => {
  test("create, list with fileCount, update, pause toggles, delete", async () => {
    const { token, folder } = await seed(t);
    expect(folder).toMatchObject({ name: "Docs", description: "mine", isPaused: false, fileCount: 0 });
    expect(folder.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const list = await t.request("GET", "/api/secure/folders", { token });
    expect(list.json).toEqual([expect.objectContaining({ id: folder.id, fileCount: 2 })]);
    t.clock.advance(1000);
    const upd = await t.request("PATCH", `/api/secure/folders/${folder.id}`, { token, body: { name: "Renamed" } });
    expect(upd.json).toMatchObject({ name: "Renamed", description: "mine" });
    expect(upd.json.updatedAt).not.toBe(folder.updatedAt);
    expect((await t.request("PATCH", `/api/secure/folders/${folder.id}/pause`, { token })).json.isPaused).toBe(true);
    expect((await t.request("PATCH", `/api/secure/folders/${folder.id}/pause`, { token })).json.isPaused).toBe(false);
    expect((await t.request("DELETE", `/api/secure/folders/${folder.id}`, { token })).json).toEqual({ success: true });
    expect((await t.request("GET", "/api/secure/folders", { token })).json).toEqual([]);
  });

  test("delete cascades to files and links and removes the bytes from disk", async () => {
    const { token, folder, image } = await seed(t);
    const l = await link(t, token, image.id);
    const dir = join(t.dataDir, "secure");
    expect(readdirSync(dir).filter((f) => f.endsWith(".bin"))).toHaveLength(1);
    await t.request("DELETE", `/api/secure/folders/${folder.id}`, { token });
    expect(readdirSync(dir).filter((f) => f.endsWith(".bin"))).toHaveLength(0);
    expect((await t.request("GET", `/api/secure/files/${image.id}`, { token })).status).toBe(404);
    expect((await t.request("GET", `/api/secure/view/${l.code}`)).status).toBe(404);
  });

  test("validation errors are 400 with details", async () => {
    const { token } = await t.telegramUser();
    const bad = await t.request("POST", "/api/secure/folders", { token, body: { name: "" } });
    expect(bad.status).toBe(400);
    expect(bad.json.details[0].field).toBe("name");
  });
});

test("a blank (whitespace-only) folder or file name is a 400 naming the field, not an empty name", async () => {
  const { token, folder } = await seed(t);
  const cases: [string, string, unknown][] = [
    ["POST", "/api/secure/folders", { name: "   " }],
    ["PATCH", `/api/secure/folders/${folder.id}`, { name: " \t " }],
    ["POST", "/api/secure/files", { folderId: folder.id, name: "  ", contentType: "text", textContent: "x" }],
  ];
  for (const [method, path, body] of cases) {
    const res = await t.request(method, path, { token, body });
    expect([method, path, res.status, res.json.details?.[0]?.field]).toEqual([method, path, 400, "name"]);
  }
  expect((await t.request("GET", `/api/secure/folders/${folder.id}`, { token })).json.name).toBe("Docs");
  expect((await t.request("GET", "/api/secure/folders", { token })).json).toHaveLength(1);
});

describe("files", () => {
  test("text file record and uploaded file record with sniffed MIME type", async () => {
    const { token, text, image, folder } = await seed(t);
    expect(text).toMatchObject({
      folderId: folder.id,
      name: "note",
      contentType: "text",
      mimeType: "text/plain",
      fileSize: 15,
      textContent: "line 1\nline <2>",
    });
    // the client claimed application/octet-stream and contentType "file": the bytes say PNG
    expect(image).toMatchObject({ contentType: "image", mimeType: "image/png", fileName: "photo.png", fileSize: 200, hasContent: true });
    const list = await t.request("GET", `/api/secure/files?folderId=${folder.id}`, { token });
    expect(list.json.map((f: any) => f.id)).toEqual([text.id, image.id]);
    const one = await t.request("GET", `/api/secure/files/${image.id}`, { token });
    expect(Object.keys(one.json)).toEqual(
      expect.arrayContaining(["id", "folderId", "name", "description", "contentType", "mimeType", "fileName", "fileSize", "createdAt"]),
    );
  });

  test("HTML disguised as an image is stored as text/plain; binary without signature as octet-stream", async () => {
    const { token, folder } = await seed(t);
    const f = (await t.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "x", contentType: "image" } }))
      .json;
    const html = await upload(t, token, f.id, new TextEncoder().encode("<html><script>alert(1)</script></html>"), "x.png", "image/png");
    expect(html.json).toMatchObject({ mimeType: "text/plain", contentType: "file" });
    const bin = await upload(t, token, f.id, new Uint8Array([0, 1, 2, 3, 255, 254]), "x.bin");
    expect(bin.json).toMatchObject({ mimeType: "application/octet-stream", contentType: "file", fileSize: 6 });
    // the re-upload replaced the earlier bytes: one stored file for this record + the seeded PNG
    expect(readdirSync(join(t.dataDir, "secure")).filter((n) => n.endsWith(".bin"))).toHaveLength(2);
  });

  test("SVG or XHTML behind an XML declaration is stored as text/plain, never a markup type a browser renders", async () => {
    const { token, folder } = await seed(t);
    const f = (await t.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "x", contentType: "image" } }))
      .json;
    const docs = [
      `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`,
      `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><body><script>alert(1)</script></body></html>`,
    ];
    for (const doc of docs) {
      const up = await upload(t, token, f.id, new TextEncoder().encode(doc), "x.svg", "image/svg+xml");
      expect([doc, up.json.mimeType, up.json.contentType]).toEqual([doc, "text/plain", "file"]);
    }
  });

  test("text needs textContent, other types refuse it; upload needs multipart with field file", async () => {
    const { token, folder, image } = await seed(t);
    const noText = await t.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "n", contentType: "text" } });
    expect(noText.status).toBe(400);
    expect(noText.json.details[0].field).toBe("textContent");
    const wrongType = await t.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "n", contentType: "pdf" } });
    expect(wrongType.status).toBe(400);
    const json = await t.request("POST", `/api/secure/files/${image.id}/upload`, { token, body: { file: "x" } });
    expect(json.status).toBe(415);
    const form = new FormData();
    form.append("other", "value");
    const missing = await t.request("POST", `/api/secure/files/${image.id}/upload`, { token, body: form });
    expect(missing.status).toBe(400);
    expect(missing.json.details[0].field).toBe("file");
  });

  test("plan limits: number of files and total storage (403 plan_limit), nothing left on disk", async () => {
    const { token, folder } = await seed(t); // 2 files
    const third = await t.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "3", contentType: "video" } });
    expect(third.status).toBe(201);
    const big = await upload(t, token, third.json.id, pngBytes(1024 * 1024 + 10), "big.png");
    expect(big.status).toBe(403);
    expect(big.json.error).toBe("plan_limit");
    expect(readdirSync(join(t.dataDir, "secure", "tmp"))).toEqual([]);
    expect(readdirSync(join(t.dataDir, "secure")).filter((n) => n.endsWith(".bin"))).toHaveLength(1);
    const fourth = await t.request("POST", "/api/secure/files", {
      token,
      body: { folderId: folder.id, name: "4", contentType: "text", textContent: "x" },
    });
    expect(fourth.status).toBe(403);
    expect(fourth.json.error).toBe("plan_limit");
  });

  test("file names lose paths and bidirectional controls that would disguise the extension", async () => {
    const { token, image } = await seed(t);
    // shown as "invoiceexe.pdf" if the right-to-left override were kept
    const up = await upload(t, token, image.id, pngBytes(), "invoice\u202Efdp.exe");
    expect(up.json.fileName).toBe("invoicefdp.exe");
    const isolates = await upload(t, token, image.id, pngBytes(), "a\u2067b\u2069\u200F.png");
    expect(isolates.json.fileName).toBe("ab.png");
  });

  test("storage limit holds for parallel uploads: two 600 KB uploads on a 1 MB plan, only one is kept", async () => {
    const { storeUpload } = await import("../../../core/secure/files");
    const { user, token, folder, text } = await seed(t); // 2 files of the plan's 3
    const third = (await t.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "a", contentType: "file" } }))
      .json;
    const ids = [text.id, third.id]; // uploading to the text record turns it into a file
    const results = await Promise.allSettled(
      ids.map((id) => storeUpload(t.deps, user.id, id, Readable.from([pngBytes(600 * 1024)]), `${id}.png`)),
    );
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason.code).toBe("plan_limit");
    expect(readdirSync(join(t.dataDir, "secure")).filter((n) => n.endsWith(".bin"))).toHaveLength(2);
    expect(readdirSync(join(t.dataDir, "secure", "tmp"))).toEqual([]);
  });

  test("delete removes the bytes", async () => {
    const { token, image } = await seed(t);
    expect((await t.request("DELETE", `/api/secure/files/${image.id}`, { token })).json).toEqual({ success: true });
    expect(readdirSync(join(t.dataDir, "secure")).filter((n) => n.endsWith(".bin"))).toHaveLength(0);
    expect(existsSync(join(t.dataDir, "secure"))).toBe(true);
  });
});

describe("links", () => {
  test("create returns the Secure link object; list, revoke, restore, delete", async () => {
    const { token, image } = await seed(t);
    const created = await t.request("POST", "/api/secure/links", { token, body: { fileId: image.id, expiresInHours: 24, maxViews: 5 } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ maxViews: 5, viewCount: 0, isRevoked: false, state: "active" });
    expect(created.json.url).toBe(`${t.config.shortUrl}/s/${created.json.code}`);
    expect(created.json.code).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(created.json.expiresAt).toBe(new Date(t.clock.now().getTime() + 24 * 3600_000).toISOString());
    const id = created.json.id;
    expect((await t.request("GET", `/api/secure/links?fileId=${image.id}`, { token })).json).toEqual([created.json]);
    expect((await t.request("PATCH", `/api/secure/links/${id}/revoke`, { token })).json).toMatchObject({
      isRevoked: true,
      state: "revoked",
    });
    expect((await t.request("PATCH", `/api/secure/links/${id}/restore`, { token })).json).toMatchObject({
      isRevoked: false,
      state: "active",
    });
    expect((await t.request("DELETE", `/api/secure/links/${id}`, { token })).json).toEqual({ success: true });
    expect((await t.request("GET", `/api/secure/links?fileId=${image.id}`, { token })).json).toEqual([]);
  });

  test("bad input: non-positive expiry, zero views, file without content", async () => {
    const { token, folder, image } = await seed(t);
    expect(
      (await t.request("POST", "/api/secure/links", { token, body: { fileId: image.id, expiresInHours: 0, maxViews: 1 } })).status,
    ).toBe(400);
    expect(
      (await t.request("POST", "/api/secure/links", { token, body: { fileId: image.id, expiresInHours: 1, maxViews: 0 } })).status,
    ).toBe(400);
    const empty = (await t.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "e", contentType: "video" } }))
      .json;
    const noContent = await t.request("POST", "/api/secure/links", { token, body: { fileId: empty.id, expiresInHours: 1, maxViews: 1 } });
    expect(noContent.status).toBe(400);
    expect(noContent.json.details[0].field).toBe("fileId");
  });
});

describe("ownership and auth", () => {
  test("another user's folder, file or link is 404 everywhere", async () => {
    const a = await seed(t, 1);
    const l = await link(t, a.token, a.image.id);
    const { token } = await t.telegramUser(2, "b");
    const calls: [string, string, unknown?][] = [
      ["PATCH", `/api/secure/folders/${a.folder.id}`, { name: "x" }],
      ["PATCH", `/api/secure/folders/${a.folder.id}/pause`],
      ["DELETE", `/api/secure/folders/${a.folder.id}`],
      ["GET", `/api/secure/files?folderId=${a.folder.id}`],
      ["GET", `/api/secure/files/${a.image.id}`],
      ["DELETE", `/api/secure/files/${a.image.id}`],
      ["POST", "/api/secure/files", { folderId: a.folder.id, name: "x", contentType: "text", textContent: "x" }],
      ["POST", "/api/secure/links", { fileId: a.image.id, expiresInHours: 1, maxViews: 1 }],
      ["GET", `/api/secure/links?fileId=${a.image.id}`],
      ["PATCH", `/api/secure/links/${l.id}/revoke`],
      ["PATCH", `/api/secure/links/${l.id}/restore`],
      ["DELETE", `/api/secure/links/${l.id}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { token, body });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    const up = await upload(t, token, a.image.id, pngBytes(), "x.png");
    expect(up.status).toBe(404);
  });

  test("API tokens need read:secure / write:secure; no credentials → 401", async () => {
    const { token, folder } = await seed(t);
    const ro = (await t.request("POST", "/api/tokens", { token, body: { name: "ro", scopes: ["read:secure"] } })).json.token;
    expect((await t.request("GET", "/api/secure/folders", { token: ro })).status).toBe(200);
    const denied = await t.request("POST", "/api/secure/folders", { token: ro, body: { name: "x" } });
    expect(denied.status).toBe(403);
    expect(denied.json.error).toBe("insufficient_scope");
    const other = (await t.request("POST", "/api/tokens", { token, body: { name: "links", scopes: ["read:links"] } })).json.token;
    expect((await t.request("GET", "/api/secure/folders", { token: other })).status).toBe(403);
    const rw = (await t.request("POST", "/api/tokens", { token, body: { name: "rw", scopes: ["write:secure"] } })).json.token;
    expect((await t.request("PATCH", `/api/secure/folders/${folder.id}/pause`, { token: rw })).status).toBe(200);
    expect((await t.request("GET", "/api/secure/folders")).status).toBe(401);
  });
});

test("stale temporary uploads (from a crash) are swept, fresh ones kept", async () => {
  const { sweepStaleUploads, tmpDir } = await import("../../../core/secure/storage");
  const { mkdirSync, writeFileSync, utimesSync } = await import("node:fs");
  mkdirSync(tmpDir(t.deps), { recursive: true });
  const old = join(tmpDir(t.deps), "old.part");
  writeFileSync(old, "x");
  utimesSync(old, new Date(Date.now() - 2 * 3600_000), new Date(Date.now() - 2 * 3600_000));
  writeFileSync(join(tmpDir(t.deps), "fresh.part"), "y");
  t.clock.set(new Date());
  expect(await sweepStaleUploads(t.deps)).toBe(1);
  expect(readdirSync(tmpDir(t.deps))).toEqual(["fresh.part"]);
});

describe("note names", () => {
  test("a note without a name is named neutrally, never after its text; a file without a name is a 400", async () => {
    t.clock.set(new Date("2026-11-25T10:00:00Z"));
    const { token } = await t.telegramUser();
    const folder = (await t.request("POST", "/api/secure/folders", { token, body: { name: "Keys" } })).json;
    const note = await t.request("POST", "/api/secure/files", {
      token,
      body: { folderId: folder.id, contentType: "text", textContent: "WiFi: office-5G / pass: s3cret" },
    });
    expect(note.status).toBe(201);
    expect(note.json.name).toBe("Note 1, 25 Nov");
    const named = await t.request("POST", "/api/secure/files", {
      token,
      body: { folderId: folder.id, name: "Router", contentType: "text", textContent: "admin / admin" },
    });
    expect(named.json.name).toBe("Router");
    const second = await t.request("POST", "/api/secure/files", {
      token,
      body: { folderId: folder.id, contentType: "text", textContent: "another" },
    });
    expect(second.json.name).toBe("Note 3, 25 Nov");
    const listed = (await t.request("GET", `/api/secure/files?folderId=${folder.id}`, { token })).json as { name: string }[];
    expect(listed.some((f) => f.name.includes("WiFi") || f.name.includes("s3cret"))).toBe(false);
    const file = await t.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, contentType: "image" } });
    expect(file.status).toBe(400);
    expect(file.json.details).toEqual([{ field: "name", message: "is required" }]);
  });
});
