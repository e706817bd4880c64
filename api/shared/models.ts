import { t } from "elysia";
import { FormatRegistry, Type, type IntegerOptions } from "@sinclair/typebox";
import { TIME_ZONES } from "../../core/analytics/range";

/**
 * The models every feature shares, declared once. A schema with a `title` listed in SHARED_MODELS
 * is written into the OpenAPI document once, under components/schemas, and referenced from there.
 */

/** The one error body of the API (CONTRACT §3); validation errors add `details`. */
export const ErrorModel = t.Object(
  {
    error: t.String({ description: "machine code, e.g. validation_error, not_found, plan_limit" }),
    message: t.String({ description: "what went wrong, in words" }),
    details: t.Optional(
      t.Array(t.Object({ field: t.String(), message: t.String() }), { description: "one entry per invalid field (400 only)" }),
    ),
  },
  { title: "Error" },
);

/** The answer of a DELETE and of actions that return nothing else. */
export const OkModel = t.Object({ success: t.Literal(true) }, { title: "Ok" });

/** Path ids: positive whole numbers a double holds exactly. */
export const IdParams = t.Object({ id: t.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

/**
 * A whole number in an answer. Elysia's `t.Integer` also accepts a numeric string (for queries and
 * paths), as a transform: a response holding one is encoded value by value through TypeBox, which
 * cost about 20 ms for a yearly hourly timeline's 8,760 rows. An answer's numbers are numbers
 * already, so its schema is the plain integer, checked by the compiled validator alone.
 */
export const Int = (options?: IntegerOptions) => Type.Integer(options);

/** An ISO 8601 UTC timestamp. */
export const DateTime = (description?: string) => t.String({ format: "date-time", ...(description ? { description } : {}) });

/**
 * The keyword that carries a format into the document only. URLs, emails and hostnames are checked
 * by the core with messages that say what is wanted; a validator's `format` would answer first with
 * its own words, so the schema names the format for readers and generators, and the document states
 * it as `format`.
 */
export const DOCUMENTED_FORMAT = "x-format";
type Format = "uri" | "email" | "hostname" | "date-time";

/** A string whose format the document states (see DOCUMENTED_FORMAT). */
export const formatted = (format: Format, options: Parameters<typeof t.String>[0] = {}) =>
  t.String({ ...options, [DOCUMENTED_FORMAT]: format });
/** An absolute http(s) URL. */
export const Url = (options: Parameters<typeof t.String>[0] = {}) => formatted("uri", options);

/**
 * The keyword that carries an enum or a pattern into the document only, for a rule core checks with
 * a message that says what is wanted (a pixel id per network) or where core accepts more than the
 * canonical list the document gives (a time zone's old alias, as browsers still report).
 */
export const DOCUMENTED_ENUM = "x-enum";
export const DOCUMENTED_PATTERN = "x-pattern";

/**
 * One of a fixed list of words, checked here and stated in the document as an enum; the 400 names
 * the allowed words. (Elysia's UnionEnum gives a missing field its first value as a default, so a
 * required field left out was taken as that value: the default goes.)
 */
export function OneOf<const V extends readonly [string, ...string[]]>(values: V, options: { description?: string } = {}) {
  const schema = t.UnionEnum([...values] as unknown as V, { error: `must be one of ${values.join(", ")}`, ...options });
  delete (schema as { default?: unknown }).default;
  return schema;
}

/**
 * One of a fixed list of words that core checks (its 400 names the allowed words, and it may read
 * an empty value as the default): stated in the document as an enum, from core's own list.
 */
export const Words = (values: readonly string[], options: { description?: string } = {}) =>
  t.String({ ...options, [DOCUMENTED_ENUM]: values });

/** An IANA time zone name: the document lists them once (core also takes their old aliases). */
export const TimeZoneModel = t.String({
  title: "TimeZone",
  minLength: 1,
  maxLength: 64,
  description: "IANA time zone name, e.g. Europe/Berlin or UTC",
  [DOCUMENTED_ENUM]: TIME_ZONES,
});

/**
 * A number in a query or path is plain decimal digits: `0x10`, `1e1`, `+5`, ` 5` and `-0` are
 * refused rather than read as 16, 10 or 5 (Elysia's own check takes whatever `Number()` reads).
 * No query or path number of the API is negative.
 */
FormatRegistry.Set("numeric", (value) => /^\d{1,20}(\.\d{1,20})?$/.test(value));
FormatRegistry.Set("integer", (value) => /^\d{1,20}$/.test(value));

export const SHARED_MODELS = { Error: ErrorModel, Ok: OkModel, TimeZone: TimeZoneModel } as const;

/** What each error status means, for the document. */
export const ERROR_MEANINGS: Record<number, string> = {
  400: "The request is invalid (validation_error with details, invalid_body, …)",
  401: "Missing, invalid, expired or revoked credentials",
  403: "The token lacks the scope, your role in the workspace is too low (forbidden_role), or a plan limit is reached (plan_limit)",
  404: "Not found, or owned by someone else",
  405: "The path exists, but not with this method (the Allow header lists the methods)",
  409: "Conflict (e.g. a custom code or hostname taken)",
  410: "Gone",
  413: "The body is too large",
  415: "The body's Content-Type is not accepted (send application/json)",
  429: "Rate limited (Retry-After and RateLimit-* headers say when to retry)",
  503: "A dependency is not configured or cannot be reached right now",
};

/** Error responses for a route's `response` map: `{ ...errors(404, 409) }`. */
export function errors<const S extends number>(...statuses: S[]): Record<S, typeof ErrorModel> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorModel])) as Record<S, typeof ErrorModel>;
}
