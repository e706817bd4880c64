import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { AppError } from "../../core/errors";
import { openLink, viewPayload } from "../../core/secure/view";
import { clientAddress } from "../shared/client-ip";
import { openMode } from "./public";
import { PUBLIC_HEADERS } from "./serve";
import { SecureModel } from "./model";
import { botPage, statePage, viewerPage } from "./viewer-html";

/**
 * The viewer page at SHORT_URL/s/<code>: opening it counts one view (HEAD, preview bots and the
 * owner do not) and renders the content with granted stream/download URLs; 403/404/410 get clear pages.
 */
export function secureViewerPages(deps: Deps) {
  const origin = new URL(deps.config.baseUrl).origin;
  const csp = `default-src 'none'; img-src ${origin}; media-src ${origin}; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  const html = (status: number, body: string, head: boolean) =>
    new Response(head ? null : body, { status, headers: { ...PUBLIC_HEADERS, "content-type": "text/html; charset=utf-8", "content-security-policy": csp } });

  return new Elysia({ name: "secure-viewer" }).get("/s/:code", async ({ request, params, server }) => {
    const head = request.method === "HEAD";
    try {
      const ip = clientAddress(request, server, deps.config.trustProxy);
      const { mode, bot, owner } = await openMode(deps, request, params.code, ip);
      const opened = openLink(deps, params.code, mode);
      if (bot) return html(200, botPage(), head);
      return html(200, viewerPage(viewPayload(deps, opened, ip, owner)), head);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      return html(e.status, statePage(e.status, e.status === 404 ? undefined : e.message), head);
    }
  }, { params: SecureModel.codeParams });
}
