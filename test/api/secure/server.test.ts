/** End-to-end over a real listening server on 127.0.0.1:0. */
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../../helpers/app";
import { link, seed } from "./helpers";

let t: TestApp;
let server: { stop(): unknown; port: number } | null = null;
afterEach(async () => {
  server?.stop();
  server = null;
  t.close();
});

function listen(env: Record<string, string> = {}) {
  t = createTestApp({ env });
  const app = t.app.listen({ hostname: "127.0.0.1", port: 0 });
  server = { stop: () => app.stop(), port: app.server!.port! };
  return `http://127.0.0.1:${server.port}`;
}

/** A browser's User-Agent, as most visitors send. */
const UA = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36" };
const BOUNDARY = "----secure-test-boundary";

/** A multipart body streamed in 64 KB chunks, `size` bytes of file content, no Content-Length. */
function multipartStream(size: number): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const parts = [
    enc.encode(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
  ];
  let sent = 0;
  let tail = false;
  const chunk = new Uint8Array(64 * 1024).fill(0x41);
  return new ReadableStream({
    pull(controller) {
      const head = parts.shift();
      if (head) return controller.enqueue(head);
      if (sent < size) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        return controller.enqueue(chunk.subarray(0, n));
      }
      if (!tail) {
        tail = true;
        return controller.enqueue(enc.encode(`\r\n--${BOUNDARY}--\r\n`));
      }
      controller.close();
    },
  });
}

function storedFiles() {
  const dir = join(t.dataDir, "secure");
  return { bins: readdirSync(dir).filter((n) => n.endsWith(".bin")), tmp: readdirSync(join(dir, "tmp")) };
}

describe("uploads over real HTTP", () => {
  test("11 MB chunked (no Content-Length) → 413 and nothing left on disk; 10 MB exactly is stored", async () => {
    const base = listen();
    const { token, folder } = await seed(t);
    const before = storedFiles();
    const f = (await t.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "big", contentType: "file" } }))
      .json;
    const res = await fetch(`${base}/api/secure/files/${f.id}/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
      body: multipartStream(11 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("content-length")).not.toBe(null);
    expect(((await res.json()) as any).error).toBe("too_large");
    expect(storedFiles()).toEqual(before);
    expect((await t.request("GET", `/api/secure/files/${f.id}`, { token })).json).toMatchObject({ hasContent: false, fileSize: null });

    // an endless body is cut off as soon as it passes 10 MB
    const endless = await fetch(`${base}/api/secure/files/${f.id}/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
      body: multipartStream(Infinity),
    });
    expect(endless.status).toBe(413);
    expect(storedFiles()).toEqual(before);

    const ok = await fetch(`${base}/api/secure/files/${f.id}/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
      body: multipartStream(10 * 1024 * 1024),
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).fileSize).toBe(10 * 1024 * 1024);
    expect(storedFiles().bins).toHaveLength(before.bins.length + 1);
    expect(storedFiles().tmp).toEqual([]);
  });

  test("with a Content-Length over 10 MB → 413 too; the stored bytes stream back identical, HEAD learns neither name nor size", async () => {
    const base = listen();
    const { token, folder } = await seed(t);
    const f = (await t.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "f", contentType: "file" } })).json;
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(10 * 1024 * 1024 + 1)]), "over.bin");
    const over = await fetch(`${base}/api/secure/files/${f.id}/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(over.status).toBe(413);
    expect(storedFiles().tmp).toEqual([]);

    const bytes = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7) % 256);
    const good = new FormData();
    good.append("file", new Blob([bytes]), "data.bin");
    expect(
      (
        await fetch(`${base}/api/secure/files/${f.id}/upload`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}` },
          body: good,
        })
      ).status,
    ).toBe(200);
    const l = await link(t, token, f.id, 1, 1);
    const v = (await (await fetch(`${base}/api/secure/view/${l.code}`, { headers: UA })).json()) as any;
    const stream = v.streamUrl.replace(t.config.baseUrl, base);
    const head = await fetch(stream, { method: "HEAD", headers: UA });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length") ?? "0").toBe("0");
    expect(head.headers.get("content-disposition")).toBeNull();
    expect(head.headers.get("content-range")).toBeNull();
    const part = await fetch(stream, { headers: { ...UA, range: "bytes=1000000-1000099" } });
    expect(part.status).toBe(206);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(1000000, 1000100));
    const all = await fetch(v.downloadUrl.replace(t.config.baseUrl, base), { headers: UA });
    expect(new Uint8Array(await all.arrayBuffer())).toEqual(bytes);
  });
});

test("a client that breaks off mid-upload leaves nothing behind and the record unchanged", async () => {
  const base = listen();
  const { token, image } = await seed(t);
  const before = storedFiles();
  const enc = new TextEncoder();
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0)
        controller.enqueue(enc.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="x.bin"\r\n\r\n`));
      if (sent > 2 * 1024 * 1024) return controller.error(new Error("client gave up"));
      sent += 256 * 1024;
      controller.enqueue(new Uint8Array(256 * 1024).fill(1));
    },
  });
  const res = await fetch(`${base}/api/secure/files/${image.id}/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  }).catch((e: Error) => e);
  expect(res instanceof Error || res.status >= 400).toBe(true);
  const deadline = Date.now() + 3000;
  while (storedFiles().tmp.length && Date.now() < deadline) await Bun.sleep(10);
  expect(storedFiles()).toEqual(before);
  expect((await t.request("GET", `/api/secure/files/${image.id}`, { token })).json).toMatchObject({ fileName: "photo.png", fileSize: 200 });
});

test("a multipart body without a boundary is 400", async () => {
  const base = listen();
  const { token, image } = await seed(t);
  const res = await fetch(`${base}/api/secure/files/${image.id}/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "multipart/form-data; charset=utf-8" },
    body: "garbage",
  });
  expect(res.status).toBe(400);
});

test("a multipart body that ends inside the file part (no closing boundary) is 400, nothing kept", async () => {
  const base = listen();
  const { token, image } = await seed(t);
  const before = storedFiles();
  const res = await fetch(`${base}/api/secure/files/${image.id}/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="cut.txt"\r\n\r\nhello wor`,
  });
  expect(res.status).toBe(400);
  expect(((await res.json()) as any).error).toBe("validation_error");
  expect(storedFiles()).toEqual(before);
  expect((await t.request("GET", `/api/secure/files/${image.id}`, { token })).json).toMatchObject({ fileName: "photo.png", fileSize: 200 });
});

describe("view counting under concurrency", () => {
  test("maxViews 5, 40 parallel openers → exactly 5 succeed, 35 get 410", async () => {
    const base = listen();
    const { token, image } = await seed(t);
    const l = await link(t, token, image.id, 1, 5);
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2
          ? fetch(`${base}/api/secure/view/${l.code}`, { headers: UA })
          : fetch(`${base}/s/${l.code}`, {
              method: "POST",
              headers: { ...UA, "content-type": "application/x-www-form-urlencoded" },
              body: "",
            })
        ).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 410)).toHaveLength(35);
    const after = (await t.request("GET", `/api/secure/links?fileId=${image.id}`, { token })).json[0];
    expect(after.viewCount).toBe(5);
  });
});

describe("grants bound to the viewer's IP", () => {
  test("the same IP streams for free; another IP is treated as having no grant", async () => {
    const base = listen({ TRUST_PROXY: "true" });
    const { token, image } = await seed(t);
    const l = await link(t, token, image.id, 1, 2);
    const v = (await (
      await fetch(`${base}/api/secure/view/${l.code}`, { headers: { ...UA, "x-forwarded-for": "203.0.113.5" } })
    ).json()) as any;
    const stream = v.streamUrl.replace(t.config.baseUrl, base);
    expect((await fetch(stream, { headers: { ...UA, "x-forwarded-for": "203.0.113.5" } })).status).toBe(200);
    expect((await t.request("GET", `/api/secure/links?fileId=${image.id}`, { token })).json[0].viewCount).toBe(1);
    expect((await fetch(stream, { headers: { ...UA, "x-forwarded-for": "198.51.100.9" } })).status).toBe(200); // counted
    expect((await t.request("GET", `/api/secure/links?fileId=${image.id}`, { token })).json[0].viewCount).toBe(2);
    expect((await fetch(stream, { headers: { ...UA, "x-forwarded-for": "198.51.100.9" } })).status).toBe(410);
    expect((await fetch(stream, { headers: { ...UA, "x-forwarded-for": "203.0.113.5" } })).status).toBe(200);
  });
});
