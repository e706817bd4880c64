/**
 * Request links, as strangers use them: a stalled upload held a slot of a capped link for two
 * minutes; what strangers sent counted against the owner's plan storage (one link's 100 MB was the
 * free plan's whole storage). A stalled upload is now cut after a short idle time, and request
 * links have a storage quota of their own, apart from the owner's files.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { createTestApp, type TestApp } from "../helpers/app";
import { rawRequest } from "../helpers/raw-http";
import { seed } from "../api/secure/helpers";
import { errorHandler } from "../../api/shared/errors";
import { secureRequestsPublic } from "../../api/secure/requests-public";
import { REQUEST_UPLOAD_DEADLINE_MS, REQUEST_UPLOAD_IDLE_MS } from "../../core/secure/request-items";

let t: TestApp;
beforeEach(() => (t = createTestApp()));
afterEach(() => t.close());

const MB = 1024 * 1024;

describe("a stalled upload", () => {
  test("is cut with 408 after the idle time over real HTTP, and the one-file link's slot goes to the next sender", async () => {
    expect([REQUEST_UPLOAD_IDLE_MS, REQUEST_UPLOAD_DEADLINE_MS]).toEqual([10_000, 60_000]);
    const { token, folder } = await seed(t);
    const r = (await t.request("POST", "/api/secure/requests", { token, body: { folderId: folder.id, maxFiles: 1 } })).json;
    // the service's own route and error model, with the idle time made short
    const app = new Elysia().use(errorHandler(t.deps.log)).use(secureRequestsPublic(t.deps, { idleMs: 400 }));
    app.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const port = app.server!.port!;
      const part = [
        "--b",
        'Content-Disposition: form-data; name="file"; filename="slow.bin"',
        "Content-Type: application/octet-stream",
        "",
        "abc",
      ].join("\r\n");
      const head = [
        `POST /api/secure/requests/${r.code}/upload HTTP/1.1`,
        "Host: 127.0.0.1",
        "Content-Type: multipart/form-data; boundary=b",
        "Content-Length: 5000000",
      ].join("\r\n");
      // a few bytes of the file, then nothing more: the connection stays open
      const stalled = await rawRequest(port, head, { chunk: part, times: 1, chunked: false }, 5000);
      expect(stalled.status).toBe(408);
      expect(JSON.parse(stalled.body)).toEqual({
        error: "upload_stalled",
        message: "Nothing arrived for 0 s, so the upload was stopped; send the file again",
      });
      expect(stalled.ms).toBeLessThan(3000);
      const next = await fetch(`http://127.0.0.1:${port}/api/secure/requests/${r.code}/upload`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: "on time" }),
      });
      expect(next.status).toBe(201);
    } finally {
      await app.stop(true);
    }
  });
});

describe("the request links' own storage quota", () => {
  const ownFiles = async (userId: number, folderId: number, bytes: number, requestId: number | null = null) =>
    t.deps.asyncDb.insert(t.deps.asyncDb.tables.secureFiles).values({
      userId,
      folderId,
      name: requestId ? "sent" : "mine",
      contentType: "file",
      fileSize: bytes,
      requestId,
    });

  test("a full plan storage of the owner's own files still takes what strangers send, and that does not count in it", async () => {
    const { user, token, folder } = await seed(t);
    const r = (await t.request("POST", "/api/secure/requests", { token, body: { folderId: folder.id } })).json;
    await ownFiles(user.id, folder.id, 100 * MB - 20_000); // the free plan's 100 MB, all but 20 kB
    const sent = await t.request("POST", `/api/secure/requests/${r.code}/upload`, { body: { text: "x".repeat(5000) } });
    expect(sent.status).toBe(201);
    // the owner's own text still fits into what was left of their own storage
    const own = await t.request("POST", "/api/secure/files", {
      token,
      body: { folderId: folder.id, name: "n", contentType: "text", textContent: "y".repeat(500) },
    });
    expect(own.status).toBe(201);
    const usage = (await t.request("GET", "/api/account/usage", { token })).json;
    expect(usage.limits).toMatchObject({ storageMB: 100, requestStorageMB: 100 });
    expect(usage.usage.requestStorageMB).toBe(0);
    expect(usage.usage.storageMB).toBe(100);
  });

  test("strangers fill at most the plan's request quota across all request links: then 403, the owner's own space untouched", async () => {
    const { user, token, folder } = await seed(t);
    const a = (await t.request("POST", "/api/secure/requests", { token, body: { folderId: folder.id } })).json;
    const b = (await t.request("POST", "/api/secure/requests", { token, body: { folderId: folder.id } })).json;
    const rows = await t.deps.asyncDb.select().from(t.deps.asyncDb.tables.secureRequests);
    // two links, each under its own 100 MB cap, together at the free plan's 100 MB request quota
    await ownFiles(user.id, folder.id, 60 * MB, rows.find((x) => x.code === a.code)!.id);
    await ownFiles(user.id, folder.id, 40 * MB - 10, rows.find((x) => x.code === b.code)!.id);
    const refused = await t.request("POST", `/api/secure/requests/${b.code}/upload`, { body: { text: "more than ten bytes" } });
    expect([refused.status, refused.json.error]).toEqual([403, "plan_limit"]);
    expect(refused.json.message).toBe("Your free plan allows 100 MB sent through request links; you have 100. Upgrade to add more.");
    const own = await t.request("POST", "/api/secure/files", {
      token,
      body: { folderId: folder.id, name: "n", contentType: "text", textContent: "still mine" },
    });
    expect(own.status).toBe(201);
  });
});
