import { Elysia, t } from "elysia";
import { NotFound } from "../../core/errors";
import { openapi } from "@elysiajs/openapi";
import { dirname, join } from "node:path";
import pkg from "../../package.json";

export const DOCS_PATH = "/api/docs";
const ASSETS = dirname(require.resolve("swagger-ui-dist/package.json"));
const ASSET_FILES = { "swagger-ui.css": "text/css; charset=utf-8", "swagger-ui-bundle.js": "text/javascript; charset=utf-8" } as const;

/**
 * The OpenAPI document generated from the route schemas (GET /api/docs/json) and a Swagger UI page
 * (GET /api/docs). Swagger UI's files are served from the installed swagger-ui-dist package, so the
 * page works without internet access (the plugin's default would load Scalar from a CDN).
 */
export function docsPlugin() {
  return new Elysia({ name: "docs" })
    .use(
      openapi({
        path: DOCS_PATH,
        specPath: `${DOCS_PATH}/json`,
        provider: "swagger-ui",
        swagger: {
          cdn: `${DOCS_PATH}/assets/swagger-ui-bundle.js`,
          theme: `${DOCS_PATH}/assets/swagger-ui.css`,
          // the plugin would pass a path relative to the page, which resolves wrongly under /api
          ...({ url: `${DOCS_PATH}/json` } as object),
          validatorUrl: "none",
          persistAuthorization: true,
        },
        exclude: { paths: [/^(?!\/api\/)/, new RegExp(`^${DOCS_PATH}`)] },
        documentation: {
          info: {
            title: "Linkbot API",
            version: pkg.version,
            description:
              "Tracking links, secure sharing and keyword tracking. Authenticate with an Authorization: Bearer header " +
              "(access token or API token) or the x-msgr-init-data header (Telegram Mini App). API tokens need the scope each endpoint names.",
          },
          components: {
            securitySchemes: {
              bearer: { type: "http", scheme: "bearer", description: "JWT access token or an API token (lbt_sk_…)" },
              initData: { type: "apiKey", in: "header", name: "x-msgr-init-data", description: "Telegram Mini App initData" },
            },
          },
          security: [{ bearer: [] }, { initData: [] }],
        },
      }),
    )
    .get(`${DOCS_PATH}/assets/:file`, ({ params, set }) => {
      if (!Object.hasOwn(ASSET_FILES, params.file)) throw new NotFound("Documentation asset");
      set.headers["content-type"] = ASSET_FILES[params.file as keyof typeof ASSET_FILES];
      set.headers["cache-control"] = "public, max-age=86400";
      return Bun.file(join(ASSETS, params.file));
    }, { params: t.Object({ file: t.String({ maxLength: 64 }) }), detail: { hide: true } });
}
