import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { AppError } from "../../core/errors";
import { openLink, revealInfo, viewPayload, type OpenDeps } from "../../core/secure/view";
import { clientAddress } from "../shared/client-ip";
import { openMode } from "./public";
import { PUBLIC_HEADERS } from "./serve";
import { pageHeaders } from "../shared/page-headers";
import { SecureModel } from "./model";
import { botPage, revealPage, statePage, viewerPage } from "./viewer-html";
import { pageLanguage, type Language } from "../../core/i18n/language";

/** The language of a public page: the visitor's Accept-Language (the pages answer with Vary on it). */
export const visitorLanguage = (request: Request): Language => pageLanguage(request.headers.get("accept-language"));

/**
 * Responses of the public secure pages (viewer, request page): the headers of every public page
 * (pageHeaders: no script but the service's own, never framed, never sniffed, no Referer, so grants
 * stay private), with images and media from BASE_URL, where the stream URLs point (the page itself
 * is on SHORT_URL), and never cached.
 */
export function htmlResponder(deps: Pick<Deps, "config">) {
  const media = [new URL(deps.config.baseUrl).origin];
  const headers = {
    ...PUBLIC_HEADERS,
    "content-type": "text/html; charset=utf-8",
    ...pageHeaders("page", { media }),
    vary: "accept-language",
  };
  return (status: number, body: string, head = false, extra: Record<string, string> = {}) =>
    new Response(head ? null : body, { status, headers: { ...headers, ...extra } });
}

/**
 * The viewer page at SHORT_URL/s/<code>. Loading it counts nothing: it shows what is shared and a
 * button (the reveal step), so mail scanners and link previewers that fetch pages burn no view.
 * Pressing the button posts the form (with the password when the link has one), which counts one
 * view and renders the content with granted stream/download URLs. 403/404/410 get clear pages.
 */
export function secureViewerPages(deps: Deps, open: OpenDeps) {
  const html = htmlResponder(deps);
  const failure = (e: unknown, lang: Language, head: boolean, reveal?: () => Promise<string>): Response | Promise<Response> => {
    if (!(e instanceof AppError)) throw e;
    // a wrong or missing password shows the first step again; the link may have changed meanwhile
    if (e.status === 401 && reveal)
      return reveal().then(
        (body) => html(401, body, head),
        (again) => failure(again, lang, head),
      );
    return html(e.status, statePage(lang, e.status, e.code), head, e.headers);
  };

  return new Elysia({ name: "secure-viewer" })
    .get(
      "/s/:code",
      async ({ request, params }) => {
        const head = request.method === "HEAD";
        const lang = visitorLanguage(request);
        try {
          const opened = await openLink(open, params.code, { consume: false, ip: null });
          return html(200, head ? "" : revealPage(lang, revealInfo(opened)), head);
        } catch (e) {
          return failure(e, lang, head);
        }
      },
      {
        params: SecureModel.codeParams,
        detail: { tags: ["secure (public)"], summary: "The viewer page: what is shared and a button (counts nothing)" },
      },
    )
    .post(
      "/s/:code",
      async ({ request, params, body, server }) => {
        const ip = clientAddress(request, server, deps.config.trustProxy);
        const lang = visitorLanguage(request);
        try {
          const { mode, bot, owner } = await openMode(deps, request, params.code, ip);
          mode.password = body?.password || null;
          const opened = await openLink(open, params.code, mode);
          if (bot) return html(200, botPage(lang));
          return html(200, viewerPage(lang, viewPayload(deps, opened, ip, owner)));
        } catch (e) {
          const code = e instanceof AppError ? e.code : "";
          return failure(e, lang, false, async () => {
            const opened = await openLink(open, params.code, { consume: false, ip });
            return revealPage(lang, revealInfo(opened), code);
          });
        }
      },
      {
        params: SecureModel.codeParams,
        body: t.Optional(t.Object({ password: t.Optional(t.String({ maxLength: 1024 })) })),
        detail: { tags: ["secure (public)"], summary: "The viewer page's button: counts one view and shows the content" },
      },
    );
}
