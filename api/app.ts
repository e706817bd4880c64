import { healthApi } from "./health";
import { createReadiness, type Readiness } from "../core/readiness";
import { type AnyElysia, Elysia } from "elysia";
import type { Deps } from "../core/deps";
import { errorHandler } from "./shared/errors";
import { allowedMethodsOf, apiRootNotFound, fixedPathMethods } from "./shared/route-methods";
import { bodyLimitPlugin } from "./shared/body";
import { rateLimitPlugin } from "./shared/rate-limit";
import { docsPlugin } from "./shared/docs";
import { tokensApi } from "./tokens";
import { authApi } from "./auth";
import { linksApi } from "./links";
import { analyticsApi } from "./analytics";
import { orphanVisitsApi } from "./analytics/orphans";
import { secureApi } from "./secure";
import { secureViewerPages } from "./secure/viewer";
import { secureRequestsPublic } from "./secure/requests-public";
import { AttemptLimiter } from "../core/secure/share-password";
import { trackingApi } from "./tracking";
import { channelsApi } from "./channels";
import { placementsApi } from "./placements";
import { placementsExportApi } from "./placements/export";
import { webhooksApi } from "./webhooks";
import { settingsApi } from "./settings";
import { workspacesApi } from "./workspaces";
import { visitorApi, visitorResponder, visitorRoutes } from "./visitor";
import { miniappRoutes } from "./miniapp";
import { pageAssets } from "./visitor/page-assets";
import { observeNative, observePlugin } from "./shared/observe";
import { metricsApi } from "./metrics";

/**
 * Builds the whole HTTP app (API under /api, visitor pages, mini-app) without starting it.
 * Tests call `app.handle(new Request(...))`; main.ts calls `app.listen`. The listening server
 * also gets native routes for GET/HEAD /<code> (see `visitorRoutes`), answering through the same
 * responder as the Elysia routes, which `app.handle` keeps using. `readiness` is the process's
 * (main.ts drains it on SIGTERM); tests leave it out.
 */
export function createApi(deps: Deps, options: { readiness?: Readiness } = {}) {
  // one wrong-password limiter for the share API and the viewer page, so both count the same attempts
  const secureOpen = { ...deps, shareAttempts: new AttemptLimiter(deps.cluster.counters, "share-password") };
  const api = new Elysia({ prefix: "/api" })
    .use(tokensApi(deps))
    .use(authApi(deps))
    .use(linksApi(deps))
    .use(analyticsApi(deps))
    .use(orphanVisitsApi(deps))
    .use(secureApi(deps, secureOpen))
    .use(trackingApi(deps))
    .use(channelsApi(deps))
    .use(placementsApi(deps))
    .use(placementsExportApi(deps))
    .use(webhooksApi(deps))
    .use(settingsApi(deps))
    .use(workspacesApi(deps));

  const visitor = visitorResponder(deps);
  const toElysia = (request: Request): Response | Promise<Response> => app.fetch(request);
  // the whole app, for the pieces that read its routes (the OpenAPI document, the 405's Allow)
  const whole = (): AnyElysia => app;
  const allowed = allowedMethodsOf(() => whole().routes);
  // development: Bun's own error pages and checks, on unless NODE_ENV=production; every error here is
  // answered by errorHandler, so the listening server always runs as in production.
  // maxRequestBodySize: Bun's own 413 has no body; the body-limit plugin answers every size itself
  const native = visitorRoutes(deps.log, visitor, toElysia)["/:code"];
  const routes = { "/:code": { GET: observeNative(deps, native.GET), HEAD: observeNative(deps, native.HEAD) } };
  const serve = { routes, development: false, maxRequestBodySize: Infinity };
  const app = new Elysia({ serve })
    // first: every request gets its id, its metrics and its log line, whatever answers it
    .use(observePlugin(deps))
    .use(errorHandler(deps.log, allowed))
    .use(rateLimitPlugin(deps))
    .use(bodyLimitPlugin())
    // after the size rules and the rate limit, before routing
    .use(fixedPathMethods(allowed))
    .use(docsPlugin(whole))
    .use(healthApi(deps, options.readiness ?? createReadiness()))
    .use(metricsApi(deps))
    .use(miniappRoutes(deps))
    .use(apiRootNotFound())
    .use(api)
    .use(secureViewerPages(deps, secureOpen))
    .use(secureRequestsPublic(deps))
    .use(pageAssets())
    .use(visitorApi(deps, visitor));
  return app;
}
