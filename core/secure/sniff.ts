import { fileTypeFromBuffer } from "file-type";

/** Detected types a browser would render as a document (scripts, forms, links) when served inline. */
const RENDERED_MARKUP = new Set(["application/xml", "text/xml", "application/xhtml+xml", "image/svg+xml", "text/html"]);

export type SecureContentType = "text" | "image" | "video" | "audio" | "file";

/**
 * The MIME type of uploaded bytes from their magic numbers (never from the client's claim alone).
 * Bytes without a known signature are text/plain when they are valid UTF-8 without NULs, else
 * application/octet-stream. Text-based formats that browsers would run (HTML, SVG) therefore end up
 * as text/plain.
 */
export async function sniffMime(head: Uint8Array): Promise<string> {
  if (head.length === 0) return "application/octet-stream";
  const detected = await fileTypeFromBuffer(head);
  // file-type calls anything behind an XML declaration application/xml, and a browser renders that
  // (SVG, XHTML) as a document: XML goes the way of the other markup, to the text check below
  if (detected && !RENDERED_MARKUP.has(detected.mime)) return detected.mime;
  if (!head.includes(0)) {
    try {
      // a multi-byte sequence may be cut at the end of the head: drop up to 3 trailing bytes
      new TextDecoder("utf-8", { fatal: true }).decode(head.length >= 4100 ? head.subarray(0, trimCut(head)) : head);
      return "text/plain";
    } catch {
      /* binary */
    }
  }
  return "application/octet-stream";
}

function trimCut(head: Uint8Array): number {
  const end = head.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const b = head[end - i]!;
    if ((b & 0xc0) === 0xc0) return end - i; // a lead byte whose sequence was cut
    if ((b & 0xc0) !== 0x80) break;
  }
  return end;
}

/** The spec's contentType for a MIME type: image, video, audio, else file. */
export function contentTypeOf(mime: string): SecureContentType {
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("audio/")) return "audio";
  return "file";
}
