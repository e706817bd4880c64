import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";

// STYLE: every route has `t` schemas. A route with path parameters must validate them, so that a
// malformed id is a 400 with details instead of reaching core as a string.
test("every /api route with path parameters has a params schema", () => {
  const t = createTestApp();
  try {
    const missing = t.app.routes
      .filter((r) => r.path.startsWith("/api/") && r.path.includes(":") && !r.hooks.params)
      .map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    // the check sees real routes
    expect(t.app.routes.some((r) => r.path === "/api/tokens/:id" && r.hooks.params)).toBe(true);
  } finally {
    t.close();
  }
});

// STYLE: a `response` schema on every route, so the OpenAPI document says what each one answers and
// the mini-app can take its types from the models.
test("every documented /api route declares its response schema, with a success status", () => {
  const t = createTestApp();
  try {
    const missing = t.app.routes
      .filter(
        (r) => r.path.startsWith("/api/") && !r.path.startsWith("/api/docs") && !(r.hooks.detail as { hide?: boolean } | undefined)?.hide,
      )
      .filter((r) => {
        const response = r.hooks.response as Record<string, unknown> | undefined;
        if (!response) return true;
        // one schema (Kind-tagged TypeBox object) is the 200; else a map with a 2xx key
        return (
          !("type" in response || Object.getOwnPropertySymbols(response).length) && !Object.keys(response).some((s) => s.startsWith("2"))
        );
      })
      .map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  } finally {
    t.close();
  }
});
