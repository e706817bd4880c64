import { type AnyElysia, Elysia, t } from "elysia";
import { NotFound } from "../../core/errors";
import { dirname, join } from "node:path";
import pkg from "../../package.json";
import { openApiDocument } from "./openapi";
import { pageHeaders } from "./page-headers";

const DOCS_PATH = "/api/docs";
const SWAGGER = dirname(require.resolve("swagger-ui-dist/package.json"));
const ASSET_FILES = {
  "swagger-ui.css": { type: "text/css; charset=utf-8", path: join(SWAGGER, "swagger-ui.css") },
  "swagger-ui-bundle.js": { type: "text/javascript; charset=utf-8", path: join(SWAGGER, "swagger-ui-bundle.js") },
  "init.js": { type: "text/javascript; charset=utf-8", path: join(import.meta.dir, "static", "docs-init.js") },
} as const;

/** The Swagger UI page: the service's own files only, no inline script (the page's CSP allows none). */
const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Linkbot API</title><link rel="stylesheet" href="${DOCS_PATH}/assets/swagger-ui.css">
<style>@media (prefers-color-scheme: dark){body{background:#222}.swagger-ui{filter:invert(92%) hue-rotate(180deg)}.swagger-ui .microlight{filter:invert(100%) hue-rotate(180deg)}}</style>
</head><body><div id="swagger-ui"></div>
<script src="${DOCS_PATH}/assets/swagger-ui-bundle.js"></script><script src="${DOCS_PATH}/assets/init.js"></script>
</body></html>`;

/** The document's own words: title, version, how to sign in. */
const HEAD = {
  info: {
    title: "Linkbot API",
    version: pkg.version,
    description:
      "Tracking links, secure sharing and keyword tracking. Authenticate with an Authorization: Bearer header " +
      "(access token or API token) or the x-msgr-init-data header (Telegram Mini App). API tokens need the scope each endpoint names. " +
      "Every error answers {error, message, details?} (the Error schema); a known path with a method it does not take answers 405 with an Allow header.",
  },
  components: {
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer", description: "JWT access token or an API token (lbt_sk_…)" },
      initData: { type: "apiKey", in: "header", name: "x-msgr-init-data", description: "Telegram Mini App initData" },
    },
  },
  security: [{ bearer: [] }, { initData: [] }],
  // the API is served with its documents: the origin the document came from
  servers: [{ url: "/" }],
};

/**
 * The OpenAPI 3.1 document generated from the route schemas (GET /api/docs/json) and a Swagger UI page
 * (GET /api/docs). Swagger UI's files are served from the installed swagger-ui-dist package, so the
 * page works without internet access; the page itself is ours, since a generated one starts Swagger UI
 * from an inline script. `app` is the whole app (read when the document is first asked for, so every
 * route is registered by then).
 */
export function docsPlugin(app: () => AnyElysia) {
  const pageHeadersOfDocs = { "content-type": "text/html; charset=utf-8", ...pageHeaders("docs") };
  let cached: { routes: number; document: Record<string, unknown> } | undefined;
  const exclude = [/^(?!\/api\/)/, new RegExp(`^${DOCS_PATH}`)];
  return new Elysia({ name: "docs" })
    .get(
      `${DOCS_PATH}/json`,
      () => {
        const routes = app().routes.length;
        if (cached?.routes !== routes) cached = { routes, document: openApiDocument(app(), HEAD, exclude) };
        return cached.document;
      },
      { detail: { hide: true } },
    )
    .get(DOCS_PATH, () => new Response(DOCS_PAGE, { headers: pageHeadersOfDocs }), { detail: { hide: true } })
    .get(
      `${DOCS_PATH}/assets/:file`,
      ({ params, set }) => {
        if (!Object.hasOwn(ASSET_FILES, params.file)) throw new NotFound("Documentation asset");
        const asset = ASSET_FILES[params.file as keyof typeof ASSET_FILES];
        set.headers["content-type"] = asset.type;
        set.headers["cache-control"] = "public, max-age=86400";
        set.headers["x-content-type-options"] = "nosniff";
        return Bun.file(asset.path);
      },
      { params: t.Object({ file: t.String({ maxLength: 64 }) }), detail: { hide: true } },
    );
}
