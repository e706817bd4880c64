import { Elysia, ValidationError as ElysiaValidationError } from "elysia";
import { AppError } from "../../core/errors";
import type { Logger } from "../../core/log";

type Details = { field: string; message: string }[];

function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

export function errorResponse(status: number, error: string, message: string, details?: Details, headers?: Record<string, string>) {
  return json(status, details ? { error, message, details } : { error, message }, headers);
}

function validationDetails(err: ElysiaValidationError): Details {
  const all = (err as unknown as { all?: { path?: string; message?: string; summary?: string }[] }).all ?? [];
  const details = all.map((e) => ({
    field: (e.path ?? "").replace(/^\//, "").replace(/\//g, ".") || "body",
    message: e.summary ?? e.message ?? "is invalid",
  }));
  return details.length ? details : [{ field: "body", message: "is invalid" }];
}

/**
 * The response for an error that reached the edge: domain errors with their own status, Elysia's
 * validation/parse/route errors in the contract's shape, other 4xx as they are; anything else is
 * logged and answers a generic 500. `code` is Elysia's error code ("UNKNOWN" outside Elysia).
 */
export function errorResponseOf(log: Logger, code: string | number, error: unknown, request: Request): Response {
  // Elysia wraps errors thrown by a body parser (e.g. TooLarge) in a ParseError
  const domain = error instanceof AppError ? error : (error as { cause?: unknown })?.cause;
  if (domain instanceof AppError) return errorResponse(domain.status, domain.code, domain.message, domain.details, domain.headers);
  switch (code) {
    case "VALIDATION": {
      const details = validationDetails(error as ElysiaValidationError);
      return errorResponse(400, "validation_error", `Invalid request: ${details.map((d) => `${d.field} ${d.message}`).join("; ")}`, details);
    }
    case "PARSE":
      return errorResponse(400, "invalid_body", "The request body could not be parsed; send valid JSON with Content-Type: application/json");
    case "NOT_FOUND":
      return errorResponse(404, "not_found", `No route for ${request.method} ${new URL(request.url).pathname}`);
    case "INVALID_COOKIE_SIGNATURE":
      return errorResponse(400, "invalid_cookie", "Invalid cookie");
  }
  const status = (error as { status?: number })?.status;
  if (typeof status === "number" && status >= 400 && status < 500)
    return errorResponse(status, status === 413 ? "too_large" : "bad_request", (error as Error).message || "Bad request");
  log.error(`unhandled error on ${request.method} ${new URL(request.url).pathname}`, error);
  return errorResponse(500, "internal_error", "Something went wrong on our side");
}

/** The one error model of CONTRACT §3: every failure leaves as {error, message, details?} JSON. */
export function errorHandler(log: Logger) {
  return new Elysia({ name: "error-handler" }).onError({ as: "global" }, ({ code, error, request }) => errorResponseOf(log, code, error, request));
}
