import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { t as schema } from "elysia";
import { createTestApp, type TestApp } from "../helpers/app";
import { MAX_JSON_BODY } from "../../api/shared/body";

let t: TestApp;
beforeEach(() => (t = createTestApp()));
afterEach(() => t.close());

/** A body stream with no Content-Length (what a chunked upload looks like to the server). */
function chunked(totalBytes: number, chunk = 64 * 1024) {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= totalBytes) return c.close();
      const n = Math.min(chunk, totalBytes - sent);
      // a JSON string that keeps going: `{"name":"xxxx…`
      const bytes = new Uint8Array(n).fill(120);
      if (sent === 0) bytes.set(new TextEncoder().encode('{"name":"'));
      sent += n;
      c.enqueue(bytes);
    },
  });
}

describe("CONTRACT §3 body and error rules", () => {
  test("an object that cannot be turned into text where a string is expected is a 400, not a 500", async () => {
    const { token } = await t.telegramUser();
    for (const body of [{ url: { toString: false } }, { url: [{ toString: false }] }, { url: { valueOf: 1, toString: null } }]) {
      const res = await t.request("POST", "/api/links", { token, body });
      expect({ status: res.status, error: res.json.error }).toEqual({ status: 400, error: "validation_error" });
    }
  });

  test("a body over 1 MB with Content-Length is 413 with the JSON error body", async () => {
    const { token } = await t.telegramUser();
    const big = JSON.stringify({ name: "x".repeat(MAX_JSON_BODY) });
    const res = await t.request("POST", "/api/tokens", { token, body: big, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ error: "too_large", message: expect.stringContaining("larger than") });
  });

  test("a chunked body over 1 MB without Content-Length is 413 (in-process)", async () => {
    const { token } = await t.telegramUser();
    const req = new Request("http://localhost/api/tokens", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: chunked(MAX_JSON_BODY + 10),
      // @ts-expect-error Bun/undici need this for stream bodies
      duplex: "half",
    });
    expect(req.headers.get("content-length")).toBeNull();
    const res = await t.app.handle(req);
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe("too_large");
  });

  test("a chunked body over 1 MB is 413 over a real socket too; a body just under passes the limit", async () => {
    const { token } = await t.telegramUser();
    const server = t.app.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const url = `http://127.0.0.1:${server.server!.port}/api/tokens`;
      const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
      const res = await fetch(url, { method: "POST", headers, body: chunked(MAX_JSON_BODY + 1) });
      expect(res.status).toBe(413);
      expect((await res.json()).error).toBe("too_large");
      // under the limit the body is read and validated normally (name too long → 400, not 413)
      const under = await fetch(url, { method: "POST", headers, body: JSON.stringify({ name: "y".repeat(MAX_JSON_BODY - 100) }) });
      expect(under.status).toBe(400);
      expect((await under.json()).details[0].field).toBe("name");
    } finally {
      await server.stop(true);
    }
  });

  test("a path that merely ends in /upload gets no upload allowance: chunked bodies past 1 MB are 413 without sign-in", async () => {
    const server = t.app.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      for (const path of ["/upload", "/s/upload", "/api/upload", "/api/links/upload", "/api/secure/files/x/upload", "/r/a/b/upload"]) {
        const res = await fetch(`http://127.0.0.1:${server.server!.port}${path}`, {
          method: "POST",
          headers: { "content-type": "multipart/form-data; boundary=x" },
          body: chunked(MAX_JSON_BODY * 8),
        });
        expect([path, res.status]).toEqual([path, 413]);
        expect((await res.json()).error).toBe("too_large");
      }
    } finally {
      await server.stop(true);
    }
  });

  test("malformed JSON is 400 invalid_body, wrong types are 400 with details", async () => {
    const { token } = await t.telegramUser();
    for (const body of ["{not json", '{"name": "a",}', "[1,2", '"unterminated']) {
      const res = await t.request("POST", "/api/tokens", { token, body, headers: { "content-type": "application/json" } });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe("invalid_body");
      expect(res.json.message).toContain("JSON");
    }
    const wrong = await t.request("POST", "/api/tokens", { token, body: { name: ["a"], expiresInDays: "ten" } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe("validation_error");
    expect(wrong.json.details.map((d: { field: string }) => d.field)).toContain("name");
    // an empty body where one is required is a 400; where none is needed (DELETE) it is fine
    const empty = await t.request("POST", "/api/tokens", { token, body: "", headers: { "content-type": "application/json" } });
    expect(empty.status).toBe(400);
    expect(empty.json.error).toBe("invalid_body");
    const created = await t.request("POST", "/api/tokens", { token, body: { name: "gone" } });
    const del = await t.request("DELETE", `/api/tokens/${created.json.id}`, {
      token,
      body: "",
      headers: { "content-type": "application/json" },
    });
    expect(del.json).toEqual({ success: true });
    // unknown fields are ignored
    const extra = await t.request("POST", "/api/tokens", { token, body: { name: "ok", colour: "blue" } });
    expect(extra.status).toBe(201);
  });

  test("a body sent as plain text or without a content type is 415; forms and JSON are parsed", async () => {
    const { token } = await t.telegramUser();
    const json = JSON.stringify({ name: "typed" });
    const plain = await t.request("POST", "/api/tokens", { token, body: json, headers: { "content-type": "text/plain" } });
    expect(plain.status).toBe(415);
    expect(plain.json).toEqual({ error: "unsupported_media_type", message: "Send the body as JSON with Content-Type: application/json" });
    // fetch's default for a string body is text/plain;charset=UTF-8
    expect((await t.request("POST", "/api/tokens", { token, body: json })).status).toBe(415);
    const server = t.app.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const url = `http://127.0.0.1:${server.server!.port}/api/tokens`;
      const untyped = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: new TextEncoder().encode(json),
      });
      expect(untyped.status).toBe(415);
      const form = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: new URLSearchParams({ name: "form" }),
      });
      expect(form.status).toBe(201);
    } finally {
      await server.stop(true);
    }
    expect((await t.request("POST", "/api/tokens", { token, body: { name: "typed" } })).status).toBe(201);
  });

  test("unknown /api paths answer a JSON 404 for every method, never HTML", async () => {
    for (const [method, path] of [
      ["GET", "/api/nope"],
      ["POST", "/api/links/1/2/3"],
      ["DELETE", "/api"],
      ["PATCH", "/api/tokens/x/y"],
    ] as const) {
      const res = await t.request(method, path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.json.error).toBe("not_found");
      expect(res.text).not.toContain("<");
    }
  });

  test("a known path asked with a method it does not take is 405 with Allow and the JSON error body", async () => {
    const { token } = await t.telegramUser();
    for (const [method, path, allow] of [
      ["PUT", "/api/links/5", "GET, HEAD, PATCH, DELETE"],
      ["DELETE", "/api/links", "POST, GET, HEAD"],
      ["POST", "/api/auth/me", "GET, HEAD"],
      ["GET", "/api/auth/refresh/", "POST"],
    ] as const) {
      const res = await t.request(method, path, { token });
      expect([method, path, res.status]).toEqual([method, path, 405]);
      expect(res.headers.get("allow")!.split(", ").sort()).toEqual(allow.split(", ").sort());
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.json).toEqual({
        error: "method_not_allowed",
        message: `${method} is not allowed on ${path}; use ${res.headers.get("allow")}`,
      });
    }
  });

  test("an unexpected error is a generic 500 without a stack trace, and is logged", async () => {
    const app = t.app.get("/api/__boom", () => {
      throw new TypeError("secret internals at /srv/app/core/x.ts:12");
    });
    const res = await app.handle(new Request("http://localhost/api/__boom"));
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({ error: "internal_error", message: "Something went wrong on our side" });
    expect(JSON.stringify(body)).not.toContain("secret internals");
    expect(t.logs.some((l) => l.includes("ERROR unhandled error on GET /api/__boom") && l.includes("secret internals"))).toBe(true);
  });
});

describe("numbers an outside fuzzer sends", () => {
  test("fractions and huge numbers in paging parameters are 400 naming the field, never 500", async () => {
    const { token } = await t.telegramUser();
    const l = (await t.request("POST", "/api/links", { token, body: { url: "https://ok.example/" } })).json;
    for (const [path, field] of [
      ["/api/webhooks/deliveries?limit=1.5", "limit"],
      ["/api/webhooks/deliveries?offset=1e300", "offset"],
      [`/api/links/${l.id}/clicks?page=1e300`, "page"],
      [`/api/links/${l.id}/clicks?page=2.5`, "page"],
    ] as const) {
      const res = await t.request("GET", path, { token });
      expect([path, res.status, res.json.details?.[0]?.field]).toEqual([path, 400, field]);
    }
  });
});

describe("answers that break their own schema", () => {
  test("are a logged 500, never blamed on the caller as a 400", async () => {
    const app = t.app.get("/api/__wrong-answer", () => ({ count: "not a number" }) as never, {
      response: schema.Object({ count: schema.Integer() }),
    });
    const res = await app.handle(new Request("http://localhost/api/__wrong-answer"));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "internal_error", message: "Something went wrong on our side" });
    expect(t.logs.some((l) => l.includes("ERROR unhandled error on GET /api/__wrong-answer"))).toBe(true);
  });
});
