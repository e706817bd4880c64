/**
 * A body nested 100,000 levels deep (200 kB, no sign-in) used to overflow the validator's stack after
 * seconds, stalling every other request, and answered 500. Deep or oversized structures are now
 * refused before they are parsed: 400 in the JSON error model within milliseconds, on every route,
 * while /livez keeps answering.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { MAX_BODY_DEPTH, MAX_BODY_VALUES } from "../../api/shared/body-shape";

let t: TestApp;
let origin: string;
beforeEach(() => {
  t = createTestApp({ listen: true });
  origin = `http://127.0.0.1:${t.app.server!.port}`;
});
afterEach(() => t.close());

const LEVELS = 100_000;
const deepArray = `{"response":${"[".repeat(LEVELS)}${"]".repeat(LEVELS)}}`;
const deepObject = `{"response":${'{"a":'.repeat(LEVELS)}1${"}".repeat(LEVELS)}}`;
const manyItems = JSON.stringify({ id: "x", response: { items: Array(300_000).fill(1) } });

/** Polls /livez one request after another until `stop`, keeping the slowest answer's time. */
function watchLivez() {
  let running = true;
  let slowest = 0;
  let answered = 0;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${origin}/livez`);
      await res.arrayBuffer();
      slowest = Math.max(slowest, performance.now() - started);
      answered++;
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { slowest, answered };
    },
  };
}

async function post(path: string, body: BodyInit, type = "application/json") {
  const started = performance.now();
  const res = await fetch(`${origin}${path}`, { method: "POST", headers: { "content-type": type }, body });
  const text = await res.text();
  return { status: res.status, type: res.headers.get("content-type"), text, ms: performance.now() - started };
}

describe("deep or oversized bodies", () => {
  test("the public passkey verify routes answer 400 in milliseconds while /livez stays fast", async () => {
    const livez = watchLivez();
    const answers = [];
    for (const path of ["/api/auth/passkey/login/verify", "/api/auth/passkey/register/verify"])
      for (const body of [deepArray, deepObject, manyItems]) answers.push({ path, ...(await post(path, body)) });
    const { slowest, answered } = await livez.stop();
    for (const a of answers) {
      expect([a.path, a.status, a.type]).toEqual([a.path, 400, "application/json; charset=utf-8"]);
      expect(JSON.parse(a.text)).toEqual({ error: "invalid_body", message: expect.stringMatching(/levels deep|values/) });
      expect(a.ms).toBeLessThan(1000);
    }
    expect(answered).toBeGreaterThan(0);
    expect(slowest).toBeLessThan(200);
  });

  test("every route refuses them the same way, signed in or not, chunked or not", async () => {
    const { token } = await t.telegramUser();
    for (const path of ["/api/links", "/api/links/bulk", "/api/tokens", "/api/tracking/trackers", "/api/nope"]) {
      const res = await fetch(`${origin}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: new Blob([deepArray]).stream(),
      });
      expect([path, res.status, (await res.json()).error]).toEqual([path, 400, "invalid_body"]);
    }
  });

  test("a form field the parser reads as JSON is held to the same limits", async () => {
    const form = new FormData();
    form.set("response", `${"[".repeat(MAX_BODY_DEPTH + 1)}${"]".repeat(MAX_BODY_DEPTH + 1)}`);
    const res = await post("/api/auth/passkey/login/verify", form, undefined as never);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error).toBe("invalid_body");
  });

  test("the limits leave real bodies alone: nesting to the limit and brackets inside text pass", async () => {
    const { token } = await t.telegramUser();
    const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
    const name = `${"[{".repeat(200)} a name with brackets`;
    const made = await fetch(`${origin}/api/tokens`, { method: "POST", headers, body: JSON.stringify({ name: name.slice(0, 60) }) });
    expect(made.status).toBe(201);
    let nested: unknown = 1;
    for (let i = 1; i < MAX_BODY_DEPTH; i++) nested = [nested];
    const deepEnough = await fetch(`${origin}/api/tokens`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "ok", extra: nested }),
    });
    expect(deepEnough.status).toBe(201);
    const many = await fetch(`${origin}/api/tokens`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "many", extra: Array(MAX_BODY_VALUES - 10).fill(0) }),
    });
    expect(many.status).toBe(201);
  });
});
