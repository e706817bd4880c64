/**
 * Serves stored bytes with HTTP Range (RFC 9110 §14): one range per request (206 with Content-Range),
 * 416 when unsatisfiable, If-Range against the strong ETag, HEAD without a body. Every response
 * carries nosniff and a restrictive CSP so a served file can never run as a page.
 */
import type { StoredObject } from "../../core/storage";

export const PUBLIC_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "private, no-store",
};
const FILE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export interface Served {
  /** the bytes, wherever the file storage keeps them (or a text in memory) */
  content: StoredObject;
  size: number;
  etag: string;
  mimeType: string;
  fileName: string;
  disposition: "inline" | "attachment";
  lastModified: Date;
}

/** RFC 6266 / RFC 8187: an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(kind: "inline" | "attachment", fileName: string): string {
  // RFC 6266 appendix D: no quotes, backslashes or "%" (some browsers percent-decode the fallback)
  const fallback = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\%]/g, "_") || "file";
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

type Range = { start: number; end: number } | "unsatisfiable" | null;

/** Parses a single `bytes=` range; null means "ignore the header and send everything". */
export function parseRange(header: string | null, size: number): Range {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === "" && m[2] === "")) return null; // malformed or multiple ranges
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? Infinity : Number(m[2]);
  if (end < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end: Math.min(end, size - 1) };
}

export function serveBytes(request: Request, f: Served): Response {
  const headers: Record<string, string> = {
    ...PUBLIC_HEADERS,
    "content-security-policy": FILE_CSP,
    "accept-ranges": "bytes",
    etag: f.etag,
    "last-modified": f.lastModified.toUTCString(),
    "content-type": f.mimeType.startsWith("text/") ? `${f.mimeType}; charset=utf-8` : f.mimeType,
    "content-disposition": contentDisposition(f.disposition, f.fileName),
  };
  const ifRange = request.headers.get("if-range");
  const range = ifRange && ifRange !== f.etag ? null : parseRange(request.headers.get("range"), f.size);
  const head = request.method === "HEAD";
  if (range === "unsatisfiable") {
    const body = JSON.stringify({ error: "range_not_satisfiable", message: `The file has ${f.size} bytes` });
    return new Response(head ? null : body, {
      status: 416,
      headers: { ...headers, "content-type": "application/json; charset=utf-8", "content-range": `bytes */${f.size}` },
    });
  }
  if (!range)
    return new Response(head ? null : f.content.body(), { status: 200, headers: { ...headers, "content-length": String(f.size) } });
  const length = range.end - range.start + 1;
  return new Response(head ? null : f.content.body(range), {
    status: 206,
    headers: { ...headers, "content-length": String(length), "content-range": `bytes ${range.start}-${range.end}/${f.size}` },
  });
}
