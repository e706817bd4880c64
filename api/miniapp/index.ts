import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { accountUsage } from "../../core/accounts/usage";
import { miniappBuild } from "../../miniapp/build";
import { indexHtml } from "../../miniapp/page";
import { pageLanguage } from "../../core/i18n/language";
import { authPlugin } from "../shared/auth";
import { MiniappModel } from "./model";
import { pageHeaders } from "../shared/page-headers";
import { AccountViews } from "../auth/model";

/**
 * The mini-app / web dashboard: `/` redirects to `/app/`, `/app/assets/*` are the bundled files
 * (content-hashed, cached for a year, gzip when accepted), every other `/app/*` path answers the
 * page (client-side routing). Also `GET /app/config.json` and `GET /api/account/usage`.
 */
export function miniappRoutes(deps: Deps) {
  let bot: Promise<{ id: number; username: string } | null> | null = null;
  const botOf = () =>
    (bot ??= deps.telegram
      ? deps.telegram.getMe().then(
          (me) => ({ id: me.id, username: me.username }),
          (e) => {
            deps.log.warn("mini-app: getMe failed, Login Widget unavailable", e);
            bot = null;
            return null;
          },
        )
      : Promise.resolve(null));

  const headers = {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-cache",
    vary: "accept-language",
    ...pageHeaders("miniapp"),
  };
  const page = async ({ request }: { request: Request }) =>
    new Response(indexHtml(await miniappBuild(), pageLanguage(request.headers.get("accept-language"))), { headers });

  return new Elysia({ name: "miniapp" })
    .use(authPlugin(deps))
    .get("/", ({ redirect }) => redirect("/app/", 302))
    .get("/app", page) // also answers /app/ (Elysia ignores the trailing slash)
    .get("/app/config.json", async () => ({
      // the Login Widget's sign-in popup is opened by bot id
      botId: (await botOf())?.id ?? null,
      botUsername: (await botOf())?.username ?? null,
      baseUrl: deps.config.baseUrl,
      shortUrl: deps.config.shortUrl,
    }))
    .get(
      "/app/assets/:name",
      async ({ params, headers }) => {
        const asset = (await miniappBuild()).assets.get(params.name);
        if (!asset) return new Response("Not found", { status: 404 });
        const gzip = /\bgzip\b/.test(headers["accept-encoding"] ?? "");
        const h: Record<string, string> = {
          "content-type": asset.type,
          "cache-control": "public, max-age=31536000, immutable",
          vary: "accept-encoding",
        };
        if (gzip) h["content-encoding"] = "gzip";
        return new Response(gzip ? asset.gzip : asset.body, { headers: h });
      },
      { params: MiniappModel.assetParams },
    )
    .get("/app/*", page)
    .get("/api/account/usage", ({ userId }) => accountUsage(deps, userId), {
      scope: "session",
      response: AccountViews.usage,
      detail: { tags: ["account"], summary: "Plan, limits and usage of the signed-in user" },
    });
}
