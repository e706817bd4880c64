import { Elysia } from "elysia";
import { AppError, TooLarge } from "../../core/errors";
import { MAX_UPLOAD_BYTES } from "../../core/secure/storage";
import { requestUrl } from "./request-url";
import { assertJsonTextShape } from "./body-shape";

/** JSON bodies above this are refused with 413 (uploads have their own limit). */
export const MAX_JSON_BODY = 1024 * 1024;

/** An upload's whole multipart body: room for part headers and small text fields beside the file. */
export const MAX_UPLOAD_BODY = MAX_UPLOAD_BYTES + 256 * 1024;

/**
 * The three routes that stream an upload and count its bytes themselves (api/secure/upload.ts, and
 * the request link's text reader): a file's owner upload and a request link's upload, by API and by
 * the public form. Every other body is counted here, whatever its path ends with.
 */
const UPLOAD_ROUTES = [/^\/api\/secure\/files\/\d+\/upload$/, /^\/api\/secure\/requests\/[^/]+\/upload$/, /^\/r\/[^/]+\/upload$/];
const isUploadRoute = (pathname: string) => UPLOAD_ROUTES.some((route) => route.test(pathname));

const tooLarge = (max: number) => new TooLarge(`Request body is larger than ${max} bytes`);

/**
 * Request line and headers above this are refused with 431 and the JSON error body. Bun refuses
 * them itself past its own limit (16 KiB unless started with a larger --max-http-header-size, as
 * `bun start` is), without a body; below that, this check answers first.
 */
const MAX_HEADER_BYTES = 12 * 1024;

/** The size of the request line and headers as they came over the wire (near enough: CRLFs and ": " included). */
function headerBytes(request: Request): number {
  let n = request.method.length + request.url.length + 12;
  request.headers.forEach((value, name) => (n += name.length + value.length + 4));
  return n;
}

/**
 * Reads a body stream, giving up with 413 as soon as it passes `max` bytes (works for chunked bodies
 * too). `onOverflow` runs first, so the caller can stop the source; nothing here waits on a cancel
 * (cancelling one branch of a tee settles only when the other branch is cancelled as well).
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, max: number, onOverflow: () => void = () => {}): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      void reader.cancel().catch(() => {});
      onOverflow();
      throw tooLarge(max);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** Elysia reads a body as JSON when its type is application/j… (json, and anything else spelled so). */
const isJsonType = (type: string) => /^application\/j/i.test(type.trimStart());
const isMultipart = (type: string) => /^multipart\/form-data/i.test(type.trimStart());

/**
 * Elysia parses a multipart field that starts with `{` or `[` as JSON: each such field is checked as
 * JSON text. A form that does not parse is left to Elysia's parser, which answers it.
 */
async function assertFormShape(body: Body) {
  const form = await body.formData().catch(() => undefined);
  for (const value of form?.values() ?? []) if (typeof value === "string" && /^[[{]/.test(value)) assertJsonTextShape(value);
}

/** Every JSON body the API takes is an object: an array, a string, a number or null is refused, not read as "no fields". */
function assertApiObject(pathname: string, text: string) {
  if (!pathname.startsWith("/api/")) return;
  const start = text.trimStart();
  if (start && !start.startsWith("{")) throw new AppError(400, "invalid_body", "The request body must be a JSON object");
}

/** 415 for a body sent to /api as plain text or without a type: the usual "forgot the header" mistake. */
function assertTypedApiBody(pathname: string, type: string, hasBody: boolean) {
  if (!hasBody || !pathname.startsWith("/api/") || isUploadRoute(pathname)) return;
  if (type === "" || type.toLowerCase().startsWith("text/plain"))
    throw new AppError(415, "unsupported_media_type", "Send the body as JSON with Content-Type: application/json");
}

/**
 * The size rules, before anything else looks at the request (so a signed-out caller gets the same
 * answer): request line and headers over MAX_HEADER_BYTES are 431; a declared Content-Length over
 * the limit (1 MB, or the upload limit on upload routes) is 413 before a byte is read. A body without
 * a length (chunked) is counted as it streams in, on a copy of the stream, before Elysia's own
 * parsers read the original: keeping those parsers means the OpenAPI document still knows each
 * route's content type. Past 1 MB both copies are cancelled, so the sender is cut off at once and
 * nothing piles up in memory. A JSON body (any length) is also read on that copy and refused with 400
 * when it nests too deep or holds too many values (body-shape.ts), before it is parsed. Malformed
 * JSON becomes Elysia's PARSE error (400); plain-text or untyped bodies to /api are 415. Upload bodies (multipart) are counted by the upload route itself.
 */
export function bodyLimitPlugin() {
  return new Elysia({ name: "body-limit" }).onRequest(async ({ request }) => {
    if (headerBytes(request) > MAX_HEADER_BYTES)
      throw new AppError(431, "headers_too_large", `Request headers are larger than ${MAX_HEADER_BYTES} bytes`);
    if (request.method === "GET" || request.method === "HEAD" || !request.body) return;
    const { pathname } = requestUrl(request);
    const upload = isUploadRoute(pathname);
    const max = upload ? MAX_UPLOAD_BODY : MAX_JSON_BODY;
    const type = request.headers.get("content-type") ?? "";
    const declared = request.headers.get("content-length");
    const json = isJsonType(type);
    const form = isMultipart(type);
    if (declared !== null) {
      const length = Number(declared);
      if (!(length <= max)) throw tooLarge(max);
      assertTypedApiBody(pathname, type, length > 0);
      if (upload || !(json || form) || length === 0) return;
    } else if (upload) return;
    let text: string | undefined;
    if (declared === null) {
      text = await readCapped(request.clone().body, MAX_JSON_BODY, () => void request.body?.cancel().catch(() => {}));
      assertTypedApiBody(pathname, type, text.length > 0);
    }
    // Elysia parses a form's fields that look like JSON as JSON: the same limits on them
    if (form) return assertFormShape(text === undefined ? request.clone() : new Response(text, { headers: { "content-type": type } }));
    if (!json) return;
    const body = text ?? (await request.clone().text());
    assertJsonTextShape(body);
    assertApiObject(pathname, body);
  });
}
