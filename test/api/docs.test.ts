import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { watchViolations } from "../helpers/csp";
import { chromium } from "playwright-core";
import { createTestApp, type TestApp } from "../helpers/app";

// this file spawns processes or a browser: more than bun's 5 s default on a busy machine
setDefaultTimeout(30_000);

let t: TestApp;
beforeAll(() => (t = createTestApp()));
afterAll(() => t.close());

describe("OpenAPI", () => {
  test("GET /api/docs/json is generated from the route schemas", async () => {
    const res = await t.request("GET", "/api/docs/json");
    expect(res.status).toBe(200);
    const doc = res.json;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe("Linkbot API");
    // the paths are named without a trailing slash (Elysia answers both)
    const create = doc.paths["/api/tokens"].post;
    expect(create.summary).toBe("Create an API token");
    const schema = create.requestBody.content["application/json"].schema;
    expect(schema.required).toEqual(["name"]);
    expect(schema.properties.name).toMatchObject({ type: "string", minLength: 1, maxLength: 100 });
    expect(doc.paths["/api/tokens/{id}"].delete.parameters[0]).toMatchObject({ name: "id", in: "path", required: true });
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    // the docs themselves, the visitor pages and the bot webhook are not API
    expect(Object.keys(doc.paths).every((p) => p.startsWith("/api/") && !p.startsWith("/api/docs"))).toBe(true);
  });

  test("the docs page loads only assets served by this service", async () => {
    const page = await t.request("GET", "/api/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const refs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.sort()).toEqual(["/api/docs/assets/init.js", "/api/docs/assets/swagger-ui-bundle.js", "/api/docs/assets/swagger-ui.css"]);
    for (const [ref, type] of [
      [refs[1], "text/javascript"],
      [refs[2], "text/css"],
    ] as const) {
      const asset = await t.request("GET", ref!);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("content-type")).toContain(type);
      expect(asset.text.length).toBeGreaterThan(10_000);
    }
    const init = await t.request("GET", refs[0]!);
    expect(init.headers.get("content-type")).toContain("text/javascript");
    expect(init.text).toContain('url: "/api/docs/json"');
    expect((await t.request("GET", "/api/docs/assets/..%2Fpackage.json")).status).toBe(404);
  });

  test("in a browser with no internet the page lists the endpoints", async () => {
    const server = t.app.listen({ hostname: "127.0.0.1", port: 0 });
    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
    try {
      const page = await browser.newPage();
      const violations = await watchViolations(page);
      const outside: string[] = [];
      await page.route("**/*", (route) => {
        const url = new URL(route.request().url());
        if (url.hostname === "127.0.0.1") return route.continue();
        outside.push(url.href);
        return route.abort();
      });
      await page.goto(`http://127.0.0.1:${server.server!.port}/api/docs`);
      const op = page.locator(".opblock-summary-path", { hasText: "/api/tokens/{id}" });
      await op.first().waitFor({ timeout: 15_000 });
      expect(await page.locator(".opblock").count()).toBeGreaterThanOrEqual(3);
      expect(await page.locator(".info .title").innerText()).toContain("Linkbot API");
      expect(outside).toEqual([]);
      expect(violations).toEqual([]); // Swagger UI runs under the docs page's Content-Security-Policy
    } finally {
      await browser.close();
      await server.stop(true);
    }
  }, 30_000); // launches Chromium, which takes seconds on a busy machine
});
