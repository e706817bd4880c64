/**
 * The public side of request links: POST /api/secure/requests/:code/upload for scripts (multipart
 * field `file`, or JSON `{text}`) and the page SHORT_URL/r/<code> for people, both without an
 * account and both limited per client address.
 */
import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { AppError, FieldError, RateLimited } from "../../core/errors";
import { MAX_REQUEST_TEXT, openRequest, receiveRequestItem, type RequestItem, type UploadTiming } from "../../core/secure/request-items";
import { requestByCode } from "../../core/secure/requests";
import { readCapped } from "../shared/body";
import { assertJsonTextShape } from "../shared/body-shape";
import { clientAddress, type Peer } from "../shared/client-ip";
import { SharedWindowLimiter } from "../shared/rate-limit";
import { ipBucket } from "../../core/ip";
import { publicError } from "./public";
import { PUBLIC_HEADERS } from "./serve";
import { SecureModel } from "./model";
import { htmlResponder, visitorLanguage } from "./viewer";
import { notReceivedPage, receivedPage, requestPage } from "./request-html";
import { problemInWords } from "../../core/i18n/problem";
import { t } from "../../core/i18n/translate";
import { statePage } from "./viewer-html";
import { withUploadedFile } from "./upload";
import { errors } from "../shared/models";

/** Items one client address may send through request links per hour (all links together). */
const REQUEST_UPLOADS_PER_HOUR = 30;

type Received = { received: true; kind: "file" | "text"; name: string; size: number; itemsLeft: number | null };

/** `timing`: the upload limits of core/secure/request-items.ts (tests shorten them). */
export function secureRequestsPublic(deps: Deps, timing: Partial<UploadTiming> = {}) {
  const limiter = new SharedWindowLimiter(deps.cluster.counters, deps.clock, 3600_000, "request-upload");
  const html = htmlResponder(deps);

  /** Rate limit, then 404/410 before a byte of the body is read, then the item itself. */
  async function receive(request: Request, server: Peer, code: string, read: () => Promise<RequestItem> | RequestItem): Promise<Received> {
    const ip = ipBucket(clientAddress(request, server, deps.config.trustProxy) ?? "unknown");
    const verdict = await limiter.hit(ip, REQUEST_UPLOADS_PER_HOUR);
    if (!verdict.allowed)
      throw new RateLimited(verdict.resetSeconds, `Too many uploads from your address: at most ${REQUEST_UPLOADS_PER_HOUR} an hour`);
    await openRequest(deps, code);
    const item = await read();
    const file = await receiveRequestItem(deps, code, item, timing);
    const after = await requestByCode(deps, code);
    return {
      received: true,
      kind: file.contentType === "text" ? "text" : "file",
      name: file.contentType === "text" ? file.name : (file.fileName ?? file.name),
      size: file.fileSize ?? 0,
      itemsLeft: after.maxFiles === null ? null : Math.max(0, after.maxFiles - after.filesReceived),
    };
  }

  /** Multipart: the field `file` is streamed into storage (413 past 10 MB). */
  const receiveFile = (request: Request, server: Peer, code: string) =>
    withUploadedFile(request, (stream, info) => receive(request, server, code, () => ({ stream, fileName: info.filename })));

  const pageFailure = (e: unknown, request: Request, code: string) => {
    if (!(e instanceof AppError)) throw e;
    const lang = visitorLanguage(request);
    const reason =
      e.status === 404 ? "request_not_found" : e.status === 413 && e.code !== "request_storage_full" ? "file_too_large" : e.code;
    // what was sent was refused, not the link: said as such (an empty text is not "link not found")
    const said = e.code === "validation_error" ? problemInWords(lang, e, (key, vars) => t(lang, key, vars)) : undefined;
    const refused = notReceivedPage(lang, code, reason, said);
    return html(e.status, refused ?? statePage(lang, e.status, reason), false, e.headers);
  };
  const tags = ["secure (public)"];

  return new Elysia({ name: "secure-requests-public" })
    .post(
      "/api/secure/requests/:code/upload",
      async ({ request, params, server }) => {
        try {
          const type = request.headers.get("content-type") ?? "";
          const result = /^application\/json/i.test(type)
            ? await receive(request, server, params.code, async () => ({
                text: textOf(await readCapped(request.body, 4 * MAX_REQUEST_TEXT)),
              }))
            : await receiveFile(request, server, params.code);
          return new Response(JSON.stringify(result), {
            status: 201,
            headers: { ...PUBLIC_HEADERS, "content-type": "application/json; charset=utf-8" },
          });
        } catch (e) {
          return publicError(e);
        }
      },
      {
        params: SecureModel.codeParams,
        parse: "none",
        // 404 no such request link, 410 expired, switched off or full
        response: { 201: SecureModel.received, ...errors(404, 410, 413, 415) },
        detail: {
          tags,
          summary:
            "Send a file (multipart field `file`, at most 10 MB) or a text (JSON `{text}`) through a request link; no account needed",
        },
      },
    )
    .get(
      "/r/:code",
      async ({ params, request }) => {
        try {
          const row = await openRequest(deps, params.code);
          return html(200, requestPage(visitorLanguage(request), row), request.method === "HEAD");
        } catch (e) {
          return pageFailure(e, request, params.code);
        }
      },
      { params: SecureModel.codeParams, detail: { tags, summary: "The request page: send a file or a text" } },
    )
    .post(
      "/r/:code/upload",
      async ({ request, params, server }) => {
        try {
          const done = await receiveFile(request, server, params.code);
          return html(201, receivedPage(visitorLanguage(request), done, params.code));
        } catch (e) {
          return pageFailure(e, request, params.code);
        }
      },
      { params: SecureModel.codeParams, parse: "none", detail: { tags, summary: "The request page's file form" } },
    )
    .post(
      "/r/:code/text",
      async ({ request, params, body, server }) => {
        try {
          const done = await receive(request, server, params.code, () => ({ text: body.text }));
          return html(201, receivedPage(visitorLanguage(request), done, params.code));
        } catch (e) {
          return pageFailure(e, request, params.code);
        }
      },
      { params: SecureModel.codeParams, body: SecureModel.requestText, detail: { tags, summary: "The request page's text form" } },
    );
}

function textOf(json: string): string {
  assertJsonTextShape(json);
  let body: unknown;
  try {
    body = JSON.parse(json);
  } catch {
    throw new FieldError("text", 'send JSON {"text": "…"} or multipart/form-data with the field `file`');
  }
  const text = (body as { text?: unknown } | null)?.text;
  if (typeof text !== "string") throw new FieldError("text", "is required (a string)");
  return text;
}
