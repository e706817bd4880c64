import { Elysia, ParseError } from "elysia";
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

/**
 * CONTRACT §3 body rules: a declared Content-Length over 1 MB is refused before reading; JSON, text
 * and form bodies are read with a cap (so chunked bodies cannot pass it) and malformed JSON is 400.
 * Multipart and binary bodies (uploads) are left to Elysia and the route's own limit.
 */
export function bodyLimitPlugin() {
  return new Elysia({ name: "body-limit" })
    .onRequest(({ request }) => {
      const len = Number(request.headers.get("content-length") ?? 0);
      if (len > MAX_JSON_BODY && !UPLOAD_PATH.test(new URL(request.url).pathname))
        throw new TooLarge(`Request body is larger than ${MAX_JSON_BODY} bytes`);
    })
    .onParse({ as: "global" }, async ({ request, contentType }) => {
      const type = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
      const isJson = type === "application/json" || type.endsWith("+json");
      if (!isJson && type !== "text/plain" && type !== "application/x-www-form-urlencoded") return;
      const text = await readCapped(request.body, MAX_JSON_BODY);
      if (type === "text/plain") return text;
      if (!isJson) return Object.fromEntries(new URLSearchParams(text));
      // an empty body (e.g. a DELETE sent with a JSON content type) is an empty object, not a parse error
      if (text.trim() === "") return {};
      try {
        return JSON.parse(text);
      } catch {
        throw new ParseError();
      }
    });
}
