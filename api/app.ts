import { Elysia } from "elysia";
import type { Deps } from "../core/deps";
import { errorHandler } from "./shared/errors";
import { bodyLimitPlugin } from "./shared/body";
import { rateLimitPlugin } from "./shared/rate-limit";
import { docsPlugin } from "./shared/docs";
import { tokensApi } from "./tokens";
import { authApi } from "./auth";
import { linksApi } from "./links";
import { analyticsApi } from "./analytics";
import { secureApi } from "./secure";
import { secureViewerPages } from "./secure/viewer";
import { trackingApi } from "./tracking";
import { webhooksApi } from "./webhooks";
import { visitorApi } from "./visitor";

export { MAX_JSON_BODY } from "./shared/body";

/**
 * Builds the whole HTTP app (API under /api, visitor pages, mini-app) without starting it.
 * Tests call `app.handle(new Request(...))`; main.ts calls `app.listen`.
 */
export function createApi(deps: Deps) {
  const api = new Elysia({ prefix: "/api" })
    .use(tokensApi(deps))
    .use(authApi(deps))
    .use(linksApi(deps))
    .use(analyticsApi(deps))
    .use(secureApi(deps))
    .use(trackingApi(deps))
    .use(webhooksApi(deps));

  return new Elysia()
    .use(errorHandler(deps.log))
    .use(rateLimitPlugin(deps))
    .use(bodyLimitPlugin())
    .use(docsPlugin())
    .get("/healthz", () => ({ ok: true }), { detail: { summary: "Liveness check" } })
    .use(api)
    .use(secureViewerPages(deps))
    .use(visitorApi(deps));
}

export type App = ReturnType<typeof createApi>;
