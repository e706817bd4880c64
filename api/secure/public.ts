import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { AppError, NotFound } from "../../core/errors";
import { blobObject } from "../../core/storage";
import { authenticate } from "../../core/accounts/principal";
import { roleIn } from "../../core/workspaces";
import { hasScope } from "../../core/tokens/scopes";
import { previewFetcher } from "../../core/redirect/bots";
import { sha256 } from "../../core/random";
import { cleanFileName, type FileRow } from "../../core/secure/files";
import { verifyGrant } from "../../core/secure/grants";
import { linkOwner, openLink, viewPayload, type OpenDeps, type OpenMode } from "../../core/secure/view";
import { errorResponse } from "../shared/errors";
import { clientAddress } from "../shared/client-ip";
import { PUBLIC_HEADERS, serveBytes } from "./serve";
import { errors } from "../shared/models";
import { SecureModel, SecureViews } from "./model";

/** The header that carries a share password. */
const PASSWORD_HEADER = "x-share-password";

/**
 * How a public request may count. Only HEAD and the named link-preview fetchers are previews;
 * every other client, scripts and HTTP libraries included, is a person. The owner's own requests
 * never count either.
 */
export async function openMode(deps: Deps, request: Request, code: string, ip: string | null, grant?: string | null) {
  const userAgent = request.headers.get("user-agent");
  const bot = previewFetcher(userAgent?.trim() ?? "") !== null;
  const owner = await isOwner(deps, request, code);
  const mode: OpenMode = {
    consume: request.method !== "HEAD" && !bot && !owner,
    grant,
    ip,
    userAgent,
    password: request.headers.get(PASSWORD_HEADER),
  };
  return { mode, bot, owner };
}

async function isOwner(deps: Deps, request: Request, code: string): Promise<boolean> {
  const authorization = request.headers.get("authorization");
  const initData = request.headers.get("x-msgr-init-data");
  if (!authorization && !initData) return false;
  try {
    const principal = await authenticate(deps, { authorization, initData });
    // the owner's preview shows the content: a token that may not read secure files is a visitor; a
    // member of the owning workspace previews as its owner (a token only within its own workspace)
    const owner = await linkOwner(deps, code);
    if (owner === null || !hasScope(principal.scopes, "read:secure") || (principal.via === "apiToken" && principal.user.id !== owner))
      return false;
    return (await roleIn(deps, principal.actorId, owner)) !== null;
  } catch {
    return false; // bad credentials on a public endpoint: treat as an ordinary visitor
  }
}

export function publicError(e: unknown): Response {
  if (!(e instanceof AppError)) throw e;
  return errorResponse(e.status, e.code, e.message, e.details, { ...PUBLIC_HEADERS, ...e.headers });
}

/** The bytes of a file (stored, or its text), its strong ETag and download name; NotFound when the stored bytes are gone. */
async function fileBody(deps: Pick<Deps, "storage">, file: FileRow) {
  const isText = file.contentType === "text";
  const content = isText ? blobObject(new Blob([file.textContent ?? ""])) : await deps.storage.open(file.storagePath!);
  if (!content) throw new NotFound("File");
  return {
    content,
    size: content.size,
    etag: `"${file.id}-${sha256(isText ? (file.textContent ?? "") : file.storagePath!).slice(0, 20)}"`,
    mimeType: isText ? "text/plain" : (file.mimeType ?? "application/octet-stream"),
    fileName: cleanFileName(isText ? `${file.name}.txt` : (file.fileName ?? file.name)),
    lastModified: file.createdAt,
  };
}

/** HEAD learns only whether the link works: no name, size or type of what it shares. */
const headAnswer = () => new Response(null, { status: 200, headers: PUBLIC_HEADERS });

/**
 * Public secure view (no auth): GET /view/:code counts one view and returns the content description
 * with granted stream/download URLs; /stream and /download serve bytes with Range support.
 */
export function securePublicApi(deps: Deps, open: OpenDeps) {
  const bytes =
    (disposition: "inline" | "attachment") =>
    async ({ request, params, query, server }: { request: Request; params: { code: string }; query: { grant?: string }; server: any }) => {
      try {
        const ip = clientAddress(request, server, deps.config.trustProxy);
        const { mode, bot } = await openMode(deps, request, params.code, ip, query.grant);
        const opened = await openLink(open, params.code, mode);
        if (request.method === "HEAD") return headAnswer();
        if (bot && !verifyGrant(deps, query.grant, opened.link.id, ip))
          return errorResponse(
            403,
            "preview_bot",
            "Link previews do not get the content; open the link in a browser",
            undefined,
            PUBLIC_HEADERS,
          );
        return serveBytes(request, { ...(await fileBody(deps, opened.file)), disposition });
      } catch (e) {
        return publicError(e);
      }
    };
  const tags = ["secure (public)"];
  // public answers: 401 a password is needed or wrong, 403 a preview bot without a grant, 404 no such link, 410 expired, revoked or used up
  const publicErrors = errors(401, 403, 404, 410);
  const byteOpts = (summary: string) => ({
    params: SecureModel.codeParams,
    query: SecureModel.grantQuery,
    headers: SecureModel.passwordHeaders,
    response: { 200: SecureViews.bytes, 206: SecureViews.bytes, ...publicErrors, ...errors(416) },
    detail: { tags, summary },
  });

  return new Elysia({ name: "secure-public", prefix: "/secure/view" })
    .get(
      "/:code",
      async ({ request, params, server }) => {
        try {
          const ip = clientAddress(request, server, deps.config.trustProxy);
          const { mode, bot, owner } = await openMode(deps, request, params.code, ip);
          const opened = await openLink(open, params.code, mode);
          if (request.method === "HEAD") return headAnswer();
          const body = bot
            ? {
                code: opened.link.code,
                contentType: opened.file.contentType,
                expiresAt: opened.link.expiresAt.toISOString(),
                message: "Open this link in a browser to view it",
              }
            : viewPayload(deps, opened, ip, owner);
          return new Response(JSON.stringify(body), { headers: { ...PUBLIC_HEADERS, "content-type": "application/json; charset=utf-8" } });
        } catch (e) {
          return publicError(e);
        }
      },
      {
        params: SecureModel.codeParams,
        headers: SecureModel.passwordHeaders,
        response: { 200: SecureViews.view, ...publicErrors },
        detail: { tags, summary: "Open a secure link (counts one view; X-Share-Password when it has a password)" },
      },
    )
    .get("/:code/stream", bytes("inline"), byteOpts("The shared bytes to show inline (Range supported; `grant` from the view's streamUrl)"))
    .get(
      "/:code/download",
      bytes("attachment"),
      byteOpts("The shared bytes as a download (Range supported; `grant` from the view's downloadUrl)"),
    );
}
