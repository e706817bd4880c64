/** A link may not send visitors (or webhooks) back into this service's own short links. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { addVerifiedDomain } from "../helpers/domains";

let t: TestApp;
let token: string;
beforeEach(async () => {
  t = createTestApp({ env: { BASE_URL: "https://app.example", SHORT_URL: "https://sho.rt" } });
  token = (await t.telegramUser()).token;
});
afterEach(() => t.close());

const create = (body: Record<string, unknown>) => t.request("POST", "/api/links", { token, body });
const LOOP = /own short links/;

describe("loop refusal", () => {
  test("a target on SHORT_URL, BASE_URL or a verified domain is 400 with details, in every target field", async () => {
    await addVerifiedDomain(t, token, "go.brand.example");
    await t.request("POST", "/api/domains", { token, body: { hostname: "unverified.example" } });
    for (const url of [
      "https://sho.rt/abc1234",
      "http://SHO.RT./abc1234",
      "https://sho.rt:443/x",
      "https://app.example/abc",
      "https://go.brand.example/xyz",
    ]) {
      const res = await create({ url });
      expect([url, res.status, res.json.error]).toEqual([url, 400, "validation_error"]);
      expect(res.json.details).toEqual([{ field: "url", message: expect.stringMatching(LOOP) }]);
    }
    const fields = {
      expired_url: "https://sho.rt/x",
      ios_url: "https://app.example/y",
      android_url: "https://go.brand.example/z",
      desktop_url: "http://sho.rt/q",
      webhook_url: "https://sho.rt/hook",
    };
    const res = await create({ url: "https://ok.example/", ...fields });
    expect(res.status).toBe(400);
    expect(res.json.details.map((d: { field: string }) => d.field).sort()).toEqual(Object.keys(fields).sort());
    for (const d of res.json.details) expect(d.message).toMatch(LOOP);
    // another port of the host is another service; an unverified domain is not served here
    expect((await create({ url: "https://sho.rt:8443/x" })).status).toBe(201);
    expect((await create({ url: "https://unverified.example/x" })).status).toBe(201);
  });

  test("edits and bulk creation are refused the same way", async () => {
    const ok = (await create({ url: "https://ok.example/" })).json;
    const edit = await t.request("PATCH", `/api/links/${ok.id}`, { token, body: { url: `https://sho.rt/${ok.code}` } });
    expect([edit.status, edit.json.details[0].field]).toEqual([400, "url"]);
    const bulk = await t.request("POST", "/api/links/bulk", { token, body: { urls: ["https://sho.rt/abc", "https://fine.example/"] } });
    expect(bulk.json.created).toBe(1);
    expect(bulk.json.failed).toEqual([{ url: "https://sho.rt/abc", error: expect.stringMatching(LOOP) }]);
  });
});

describe("loop refusal in redirect rules and A/B variants", () => {
  test("a rule's or a variant's URL on the service's own hosts is 400 naming it", async () => {
    const res = await create({
      url: "https://ok.example/",
      rules: [{ if: { country: ["DE"] }, url: "https://sho.rt/other" }],
      variants: [
        { url: "https://a.example/", weight: 50 },
        { url: "https://app.example/b", weight: 50 },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.json.details).toEqual([
      { field: "rules[0].url", message: expect.stringMatching(LOOP) },
      { field: "variants[1].url", message: expect.stringMatching(LOOP) },
    ]);
  });
});
