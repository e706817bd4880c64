import { Elysia } from "elysia";
import { AppError, TooLarge } from "../../core/errors";

/** JSON bodies above this are refused with 413 (uploads have their own limit). */
export const MAX_JSON_BODY = 1024 * 1024;

const UPLOAD_PATH = /\/upload$/;

/** Reads a body stream, giving up with 413 as soon as it passes `max` bytes (works for chunked bodies too). */
export async function readCapped(body: ReadableStream<Uint8Array> | null, max: number): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new TooLarge(`Request body is larger than ${max} bytes`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

const CAPPED_TYPES = /^(application\/(json|[\w.+-]+\+json|x-www-form-urlencoded)|text\/)/i;

/** 415 for a body sent to /api as plain text or without a type: the usual "forgot the header" mistake. */
function assertTypedApiBody(pathname: string, type: string, hasBody: boolean) {
  if (!hasBody || !pathname.startsWith("/api/") || UPLOAD_PATH.test(pathname)) return;
  if (type === "" || type.toLowerCase().startsWith("text/plain"))
    throw new AppError(415, "unsupported_media_type", "Send the body as JSON with Content-Type: application/json");
}

/**
 * CONTRACT §3 body rules: a declared Content-Length over 1 MB is refused before reading; JSON, text
 * and form bodies are also measured as they stream in (a copy of the stream, so chunked bodies cannot
 * pass the cap) before Elysia's own parsers read them — keeping those parsers means the OpenAPI
 * document still knows each route's content type. Malformed JSON becomes Elysia's PARSE error (400);
 * plain-text or untyped bodies to /api are 415. Multipart and binary bodies (uploads) are left to the
 * route's own limit.
 */
export function bodyLimitPlugin() {
  return new Elysia({ name: "body-limit" }).onRequest(async ({ request }) => {
    if (request.method === "GET" || request.method === "HEAD" || !request.body) return;
    const { pathname } = new URL(request.url);
    const type = request.headers.get("content-type") ?? "";
    const declared = request.headers.get("content-length");
    if (declared !== null) {
      if (Number(declared) > MAX_JSON_BODY && !UPLOAD_PATH.test(pathname)) throw new TooLarge(`Request body is larger than ${MAX_JSON_BODY} bytes`);
      if (Number(declared) <= MAX_JSON_BODY) return assertTypedApiBody(pathname, type, Number(declared) > 0);
    }
    if (type === "" || CAPPED_TYPES.test(type)) {
      const text = await readCapped(request.clone().body, MAX_JSON_BODY);
      assertTypedApiBody(pathname, type, text.length > 0);
    }
  });
}
