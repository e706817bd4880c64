import { Elysia } from "elysia";
import type { Deps } from "../core/deps";
import { errorHandler, errorResponse } from "./shared/errors";
import { tokensApi } from "./tokens";
import { authApi } from "./auth";
import { linksApi } from "./links";
import { analyticsApi } from "./analytics";
import { secureApi } from "./secure";
import { trackingApi } from "./tracking";
import { webhooksApi } from "./webhooks";
import { visitorApi } from "./visitor";
import { miniappRoutes } from "./miniapp";

/** JSON bodies above this are refused with 413 (uploads have their own limit). */
export const MAX_JSON_BODY = 1024 * 1024;

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
    .onRequest(({ request }) => {
      const len = Number(request.headers.get("content-length") ?? 0);
      if (len > MAX_JSON_BODY && !/\/upload$/.test(new URL(request.url).pathname))
        return errorResponse(413, "too_large", `Request body is larger than ${MAX_JSON_BODY} bytes`);
    })
    .get("/healthz", () => ({ ok: true }))
    .use(miniappRoutes(deps))
    .use(api)
    .use(visitorApi(deps));
}

export type App = ReturnType<typeof createApi>;
