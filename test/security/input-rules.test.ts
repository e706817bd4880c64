/**
 * Input the API took but should refuse, and rules the document did not state: bodies that are not
 * objects, numbers written as `0x10` or `+5`, a pixel without its type, and the allowed periods,
 * granularities, export formats, scopes, time zones and pixel ids, now enums and patterns in the
 * document, from the same lists core checks with. `language_chosen: null` fits its own schema.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { PERIOD_NAMES, TIME_ZONES } from "../../core/analytics/range";
import { GRANULARITIES } from "../../core/analytics/stats";
import { EXPORT_FORMATS } from "../../core/analytics/export";
import { SCOPES } from "../../core/tokens/scopes";
import { ANY_PIXEL_ID_PATTERN } from "../../core/catalog/pixels";

let t: TestApp;
let token: string;
let linkId: number;
let doc: any;
beforeAll(async () => {
  t = createTestApp();
  token = (await t.telegramUser()).token;
  linkId = (await t.request("POST", "/api/links", { token, body: { url: "https://rules.example/" } })).json.id;
  doc = (await t.request("GET", "/api/docs/json")).json;
});
afterAll(() => t.close());

const resolve = (s: any) => (s?.$ref ? doc.components.schemas[s.$ref.split("/").pop()] : s);
const param = (path: string, name: string) => resolve(doc.paths[path].get.parameters.find((p: any) => p.name === name).schema);

describe("refused", () => {
  test("a JSON body that is not an object is 400 on every operation that takes a body", async () => {
    for (const [method, path] of [
      ["POST", "/api/auth/passkey/login/options"],
      ["PATCH", `/api/links/${linkId}`],
      ["PATCH", "/api/settings"],
      ["POST", "/api/links"],
      ["POST", "/api/tokens"],
    ] as const)
      for (const body of ["[]", "1", '"x"', "true", "null", " [ ]"]) {
        const res = await t.request(method, path, { token, body, headers: { "content-type": "application/json" } });
        expect([method, path, body, res.status, res.json]).toEqual([
          method,
          path,
          body,
          400,
          { error: "invalid_body", message: "The request body must be a JSON object" },
        ]);
      }
    // settings unchanged by all that
    expect((await t.request("GET", "/api/settings", { token })).json.time_zone).toBe("UTC");
  });

  test("numbers in a query or a path are plain digits: hex, exponents, signs and spaces are refused", async () => {
    for (const value of ["0x10", "+5", "-0", "1e1", "%205", "0b1", "0o7", "5%20", "Infinity"]) {
      const res = await t.request("GET", `/api/webhooks/deliveries?limit=${value}`, { token });
      expect([value, res.status, res.json.details?.[0]?.field]).toEqual([value, 400, "limit"]);
      const tracked = await t.request("GET", `/api/tracking/matches?offset=${value}`, { token });
      expect([value, tracked.status]).toEqual([value, 400]);
    }
    for (const id of ["0x1", "+1", `${linkId}e0`]) {
      const res = await t.request("GET", `/api/links/${id}`, { token });
      expect([id, res.status, res.json.error]).toEqual([id, 400, "validation_error"]);
    }
    expect((await t.request("GET", "/api/webhooks/deliveries?limit=16", { token })).status).toBe(200);
    expect((await t.request("GET", `/api/links/${linkId}`, { token })).status).toBe(200);
  });

  test("a pixel without its type is refused, not taken as a Facebook pixel", async () => {
    const res = await t.request("POST", "/api/pixels", { token, body: { name: "no type", pixelId: "123456789012345" } });
    expect([res.status, res.json.error, res.json.details.map((d: { field: string }) => d.field)]).toEqual([
      400,
      "validation_error",
      ["type"],
    ]);
    expect(res.json.details[0].message).toBe("must be one of facebook, google, tiktok, yandex, vk");
    expect((await t.request("GET", "/api/pixels", { token })).json).toEqual([]);
  });
});

describe("stated in the document, from core's own lists", () => {
  test("period, granularity, export format, scopes, time zones and pixel ids", () => {
    expect(param("/api/links/{id}/stats", "period").enum).toEqual([...PERIOD_NAMES]);
    expect(param("/api/orphan-visits", "period").enum).toEqual([...PERIOD_NAMES]);
    expect(param("/api/links/{id}/timeline", "granularity").enum).toEqual([...GRANULARITIES]);
    expect(param("/api/links/{id}/timeline", "tz").enum).toEqual([...TIME_ZONES]);
    const exportBody = doc.paths["/api/links/{id}/export"].post.requestBody.content["application/json"].schema;
    expect(exportBody.properties.format.enum).toEqual([...EXPORT_FORMATS]);
    const tokenBody = doc.paths["/api/tokens"].post.requestBody.content["application/json"].schema;
    expect(tokenBody.properties.scopes.items.enum).toEqual([...SCOPES]);
    const settings = doc.paths["/api/settings"].patch.requestBody.content["application/json"].schema;
    expect(resolve(settings.properties.time_zone).enum).toEqual([...TIME_ZONES]);
    const pixel = doc.paths["/api/pixels"].post.requestBody.content["application/json"].schema;
    expect(pixel.required).toContain("type");
    expect(pixel.properties.type.enum).toEqual(["facebook", "google", "tiktok", "yandex", "vk"]);
    expect(pixel.properties.type.default).toBeUndefined();
    expect(pixel.properties.pixelId.pattern).toBe(ANY_PIXEL_ID_PATTERN);
    // the time zones are written once, under components
    expect(JSON.stringify(doc).split('"Africa/Abidjan"').length - 1).toBe(1);
  });

  test("every value the document lists is accepted", async () => {
    for (const period of PERIOD_NAMES)
      expect([period, (await t.request("GET", `/api/links/${linkId}/stats?period=${period}`, { token })).status]).toEqual([period, 200]);
    for (const granularity of GRANULARITIES) {
      const res = await t.request("GET", `/api/links/${linkId}/timeline?period=1d&granularity=${granularity}`, { token });
      expect([granularity, res.status]).toEqual([granularity, 200]);
    }
    const statuses = await Promise.all(
      TIME_ZONES.map(async (tz) => [
        tz,
        (await t.request("GET", `/api/links/${linkId}/heatmap?period=1d&tz=${encodeURIComponent(tz)}`, { token })).status,
      ]),
    );
    expect(statuses.filter(([, status]) => status !== 200)).toEqual([]);
    for (const scope of SCOPES) {
      const res = await t.request("POST", "/api/tokens", { token, body: { name: scope, scopes: [scope] } });
      expect([scope, res.status]).toEqual([scope, 201]);
      await t.request("DELETE", `/api/tokens/${res.json.id}`, { token });
    }
    const pattern = new RegExp(ANY_PIXEL_ID_PATTERN);
    for (const [type, pixelId] of [
      ["facebook", "123456789012345"],
      ["google", "G-ABC123XYZ"],
      ["tiktok", "C4ABCDEF1234567890"],
      ["yandex", "12345678"],
      ["vk", "VK-RTRG-123456-AbCdE"],
    ]) {
      expect(pattern.test(pixelId!)).toBe(true);
      expect((await t.request("POST", "/api/pixels", { token, body: { name: type, type, pixelId } })).status).toBe(201);
    }
  }, 30_000);

  test("language_chosen: null fits its own schema", async () => {
    const schema = doc.paths["/api/settings"].get.responses["200"].content["application/json"].schema.properties.language_chosen;
    expect(schema.type).toEqual(["string", "null"]);
    expect(schema.enum).toEqual(["en", "ru", null]);
    const answer = (await t.request("GET", "/api/settings", { token })).json;
    expect(answer.language_chosen).toBeNull();
    expect(schema.enum).toContain(answer.language_chosen);
  });
});
