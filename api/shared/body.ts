import { Elysia } from "elysia";
import { TooLarge } from "../../core/errors";

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

/**
 * CONTRACT §3 body rules: a declared Content-Length over 1 MB is refused before reading; JSON, text
 * and form bodies are also measured as they stream in (a copy of the stream, so chunked bodies cannot
 * pass the cap) before Elysia's own parsers read them — keeping those parsers means the OpenAPI
 * document still knows each route's content type. Malformed JSON becomes Elysia's PARSE error (400).
 * Multipart and binary bodies (uploads) are left to the route's own limit.
 */
export function bodyLimitPlugin() {
  return new Elysia({ name: "body-limit" }).onRequest(async ({ request }) => {
    if (request.method === "GET" || request.method === "HEAD" || !request.body) return;
    const declared = request.headers.get("content-length");
    if (declared !== null) {
      if (Number(declared) > MAX_JSON_BODY && !UPLOAD_PATH.test(new URL(request.url).pathname))
        throw new TooLarge(`Request body is larger than ${MAX_JSON_BODY} bytes`);
      if (Number(declared) <= MAX_JSON_BODY) return;
    }
    if (CAPPED_TYPES.test(request.headers.get("content-type") ?? "")) await readCapped(request.clone().body, MAX_JSON_BODY);
  });
}
