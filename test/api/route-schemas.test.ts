import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";

// STYLE: every route has `t` schemas. A route with path parameters must validate them, so that a
// malformed id is a 400 with details instead of reaching core as a string.
test("every /api route with path parameters has a params schema", () => {
  const t = createTestApp();
  try {
    const missing = t.app
      .routes
      .filter((r) => r.path.startsWith("/api/") && r.path.includes(":") && !r.hooks.params)
      .map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    // the check sees real routes
    expect(t.app.routes.some((r) => r.path === "/api/tokens/:id" && r.hooks.params)).toBe(true);
  } finally {
    t.close();
  }
});
