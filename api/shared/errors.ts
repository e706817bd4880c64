import { Elysia, type ValidationError as ElysiaValidationError } from "elysia";
import { TypeCompiler } from "elysia/type-system";
import { AppError } from "../../core/errors";
import { briefError, createRepeatLog, type Logger, type RepeatLog } from "../../core/log";
import { isDatabaseUnavailable } from "../../db/unavailable";
import { requestUrl } from "./request-url";
import { noteErrorStatus } from "./observe";
import { type AllowedMethods, methodNotAllowed } from "./route-methods";

type Details = { field: string; message: string }[];

function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    // nosniff on every error body (public secure view errors, rate limits and validation included)
    headers: { "content-type": "application/json; charset=utf-8", "x-content-type-options": "nosniff", ...headers },
  });
}

export function errorResponse(status: number, error: string, message: string, details?: Details, headers?: Record<string, string>) {
  return json(status, details ? { error, message, details } : { error, message }, headers);
}

/**
 * The query or path parameter a value came from. Elysia checks a converted number (t.Numeric,
 * t.Integer in query and params) on its own and reports it without the parameter's name, so the
 * name is found again by the raw text of the failed value.
 */
function parameterOf(value: unknown, request: Request, params: Record<string, unknown> | undefined): string | undefined {
  if (value === undefined || value === null || typeof value === "object") return undefined;
  const raw = String(value);
  // a converted number may not print as it was sent ("99999999999999999999" became 1e20)
  const same = (v: string) => v === raw || (typeof value === "number" && v.trim() !== "" && Number(v) === value);
  for (const [k, v] of requestUrl(request).searchParams) if (same(v)) return k;
  // params may already hold converted values (a number for an integer id)
  for (const [k, v] of Object.entries(params ?? {})) if (same(String(v))) return k;
  return undefined;
}

type Schema = { anyOf?: Schema[]; type?: string; format?: string; [k: string]: unknown };

/** The JSON Schema type names a value can satisfy. */
function typesOf(value: unknown): string[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  if (typeof value === "number") return Number.isInteger(value) ? ["integer", "number"] : ["number"];
  return [typeof value];
}

/** The alternatives of a union, nested unions flattened (a parent's own constraints go down to its branches). */
function branchesOf(schema: Schema): Schema[] {
  if (!schema.anyOf) return [schema];
  const { anyOf, ...own } = schema;
  return anyOf.flatMap((b) => branchesOf({ ...own, ...b }));
}

/**
 * A union ("a number or null") reports only "should be one of: 'number', 'null'", even for a number
 * that breaks a bound. For a value of one alternative's type, that alternative's own error is the
 * clear one ("Expected integer to be greater or equal to 1").
 */
function unionMessage(schema: Schema | undefined, value: unknown): string | undefined {
  if (!schema?.anyOf) return undefined;
  const types = typesOf(value);
  const branch = branchesOf(schema).find((b) => b.type && types.includes(b.type) && !(typeof value !== "string" && b.format));
  if (!branch) return undefined;
  // the alternative's own words, when it has them ("must be at most 200 characters")
  if (typeof branch.error === "string" && !TypeCompiler.Compile(branch as never).Check(value)) return branch.error;
  if (typeof value === "string" && (branch.format === "numeric" || branch.format === "integer"))
    return branch.format === "integer" ? "must be a whole number" : "must be a number";
  return TypeCompiler.Compile(branch as never)
    .Errors(value)
    .First()?.message;
}

function validationDetails(err: ElysiaValidationError, request: Request, params: Record<string, string> | undefined): Details {
  const all =
    (err as unknown as { all?: { path?: string; message?: string; summary?: string; value?: unknown; schema?: Schema }[] }).all ?? [];
  const details = all.map((e) => ({
    field: (e.path ?? "").replace(/^\//, "").replace(/\//g, ".") || parameterOf(e.value, request, params) || "body",
    // a schema's own `error` text says what is wanted in words ("must be comma-separated tag ids")
    message:
      (typeof e.schema?.error === "string" ? e.schema.error : undefined) ??
      unionMessage(e.schema, e.value) ??
      e.summary ??
      e.message ??
      "is invalid",
  }));
  return details.length ? details : [{ field: "body", message: "is invalid" }];
}

/**
 * The response for an error that reached the edge: domain errors with their own status, Elysia's
 * validation/parse/route errors in the contract's shape, other 4xx as they are; anything else is
 * logged and answers a generic 500. `code` is Elysia's error code ("UNKNOWN" outside Elysia).
 */
export function errorResponseOf(
  log: Logger,
  code: string | number,
  error: unknown,
  request: Request,
  params?: Record<string, string>,
  allowed: AllowedMethods = () => [],
): Response {
  if (isDatabaseUnavailable(error)) return databaseUnavailable(log, error);
  // Elysia wraps errors thrown by a body parser (e.g. TooLarge) in a ParseError
  const domain = error instanceof AppError ? error : (error as { cause?: unknown })?.cause;
  if (domain instanceof AppError) return errorResponse(domain.status, domain.code, domain.message, domain.details, domain.headers);
  switch (code) {
    case "VALIDATION": {
      // an answer that breaks its own route's response schema is our fault, not the caller's
      if ((error as { type?: string }).type === "response") return internalError(log, request, error);
      const details = validationDetails(error as ElysiaValidationError, request, params);
      return errorResponse(
        400,
        "validation_error",
        `Invalid request: ${details.map((d) => `${d.field} ${d.message}`).join("; ")}`,
        details,
      );
    }
    case "PARSE":
      return errorResponse(
        400,
        "invalid_body",
        "The request body could not be parsed; send valid JSON with Content-Type: application/json",
      );
    case "NOT_FOUND": {
      const { pathname } = requestUrl(request);
      const methods = allowed(pathname);
      if (methods.length) {
        const e = methodNotAllowed(request.method, pathname, methods);
        return errorResponse(e.status, e.code, e.message, undefined, e.headers);
      }
      return errorResponse(404, "not_found", `No route for ${request.method} ${pathname}`);
    }
    case "INVALID_COOKIE_SIGNATURE":
      return errorResponse(400, "invalid_cookie", "Invalid cookie");
  }
  if (unprintable(error))
    return errorResponse(400, "validation_error", "Invalid request: a value in the body is an object where text was expected", [
      { field: "body", message: "holds an object that cannot be read as text" },
    ]);
  const status = (error as { status?: number })?.status;
  if (typeof status === "number" && status >= 400 && status < 500)
    return errorResponse(status, status === 413 ? "too_large" : "bad_request", (error as Error).message || "Bad request");
  return internalError(log, request, error);
}

/**
 * A JSON body can hold an object whose `toString` is not a function (`{"toString": false}`); turning
 * it into text, as the validator does to word its message, throws a TypeError before any route runs.
 * That is the caller's malformed input, not a fault of ours.
 */
function unprintable(error: unknown): boolean {
  return error instanceof TypeError && /^(No default value|Cannot convert object to primitive value)$/.test(error.message);
}

/** Logged with its details; the caller learns only that it was not their fault. */
function internalError(log: Logger, request: Request, error: unknown): Response {
  log.error(`unhandled error on ${request.method} ${requestUrl(request).pathname}`, error);
  return errorResponse(500, "internal_error", "Something went wrong on our side");
}

/** Seconds a client is asked to wait while the database cannot be reached. */
const DATABASE_RETRY_AFTER_S = 5;

/** One repeat log per logger (one per running service): an outage is a few lines, not one per request. */
const repeatLogs = new WeakMap<Logger, RepeatLog>();

/**
 * The database cannot be reached (down, restarting, out of connections): nothing is wrong with the
 * request, so it is told to come back (503 with Retry-After), and the outage is logged once per
 * interval with a count rather than once per request.
 */
function databaseUnavailable(log: Logger, error: unknown): Response {
  let repeat = repeatLogs.get(log);
  if (!repeat) repeatLogs.set(log, (repeat = createRepeatLog(log)));
  repeat("warn", "database_unavailable", `database unavailable: answering 503 (${briefError(error)})`);
  return errorResponse(503, "database_unavailable", "The database cannot be reached right now; try again shortly", undefined, {
    "Retry-After": String(DATABASE_RETRY_AFTER_S),
  });
}

/**
 * The one error model of CONTRACT §3: every failure leaves as {error, message, details?} JSON. A
 * known path asked with a method it does not take is 405 with `Allow` (`allowed` knows the paths).
 */
export function errorHandler(log: Logger, allowed?: AllowedMethods) {
  return new Elysia({ name: "error-handler" }).onError({ as: "global" }, ({ code, error, request, params }) => {
    const res = errorResponseOf(log, code, error, request, params as Record<string, string> | undefined, allowed);
    noteErrorStatus(request, res.status);
    return res;
  });
}
