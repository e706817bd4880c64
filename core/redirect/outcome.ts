import type { PixelType } from "../catalog/pixels";

/** What the visitor side knows about a request to SHORT_URL/<code>. */
export interface VisitRequest {
  code: string;
  /** Host header (port allowed) */
  host: string | null;
  method: "GET" | "HEAD" | "POST";
  ip: string | null;
  userAgent: string | null;
  referer: string | null;
  /** the submitted form field on POST */
  password?: string;
  /** the Accept-Language header, read only when a rule asks for the language */
  acceptLanguage?: () => string | null;
  /** the short link's own query string (without `?`), read only when a rule asks for it */
  query?: () => string;
}

export type PixelTag = { type: PixelType; pixelId: string };

/** What to show: each kind maps to one page or redirect at the edge. */
export type VisitOutcome =
  | { kind: "not_found" }
  | { kind: "expired"; title: string | null; expiredUrl: string | null }
  | { kind: "countdown"; title: string | null; startsAt: Date; now: Date }
  | { kind: "password"; title: string | null; wrong: boolean }
  | { kind: "locked"; title: string | null; retryAfterSeconds: number }
  | { kind: "redirect"; title: string | null; target: string; pixels: PixelTag[]; clickId?: string };
