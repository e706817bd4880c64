import { toOpenAPISchema } from "@elysiajs/openapi";
import type { AnyElysia } from "elysia";
import { DOCUMENTED_ENUM, DOCUMENTED_FORMAT, DOCUMENTED_PATTERN, ERROR_MEANINGS, SHARED_MODELS } from "./models";

type Json = Record<string, unknown>;
type Operation = {
  parameters?: { in: string }[];
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, unknown>;
  "x-scope"?: string;
};

const isObject = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/**
 * Elysia writes a query or path number as "a numeric string or a number" (t.Numeric, t.Integer) and
 * a nullable as an extra `nullable: true` (OpenAPI 3.0's word). On the wire a parameter is always
 * text, so the document says what the text must hold: a number, or an integer; and 3.1 says null
 * with `type: [..., "null"]` alone. Elysia's own `error` keyword (the message of a failed check) goes.
 * `properties` is a map of names, so a property called `error` or `nullable` stays.
 */
function normalizeSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeSchema);
  if (!isObject(value)) return value;
  const {
    nullable: _nullable,
    error: _error,
    [DOCUMENTED_FORMAT]: format,
    [DOCUMENTED_ENUM]: documentedEnum,
    [DOCUMENTED_PATTERN]: pattern,
    ...schema
  } = value;
  if (typeof format === "string") schema.format = format;
  if (Array.isArray(documentedEnum)) schema.enum = documentedEnum;
  if (typeof pattern === "string") schema.pattern = pattern;
  // a nullable enum ("en", "ru" or null) lists null among its values, or null would break it
  if (Array.isArray(schema.enum) && Array.isArray(schema.type) && schema.type.includes("null") && !schema.enum.includes(null))
    schema.enum = [...schema.enum, null];
  const union = schema.anyOf;
  if (Array.isArray(union) && union.length === 2) {
    const text = union.find((b) => isObject(b) && b.type === "string" && (b.format === "numeric" || b.format === "integer")) as
      | Json
      | undefined;
    const number = union.find((b) => isObject(b) && (b.type === "number" || b.type === "integer")) as Json | undefined;
    if (text && number) {
      const { anyOf: _, ...own } = schema;
      const merged: Json = { ...own, ...number };
      if (text.format === "integer" || merged.type === "integer" || merged.multipleOf === 1) {
        merged.type = "integer";
        delete merged.multipleOf;
      }
      return normalizeSchema(merged);
    }
  }
  const out: Json = {};
  for (const [k, v] of Object.entries(schema))
    out[k] =
      k === "properties" && isObject(v)
        ? Object.fromEntries(Object.entries(v).map(([name, p]) => [name, normalizeSchema(p)]))
        : normalizeSchema(v);
  return out;
}

/** Shared models (by their `title`) become references to components/schemas. */
function referenceShared(value: unknown, top = true): unknown {
  if (Array.isArray(value)) return value.map((v) => referenceShared(v, false));
  if (!isObject(value)) return value;
  if (!top && typeof value.title === "string" && Object.hasOwn(SHARED_MODELS, value.title))
    return { $ref: `#/components/schemas/${value.title}` };
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) out[k] = referenceShared(v, false);
  return out;
}

const errorResponse = (status: number) => ({
  description: ERROR_MEANINGS[status] ?? `Error ${status}`,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

/**
 * The error answers every operation can give by the rules of the edge, added where the route did not
 * declare them itself: 429 (rate limit) anywhere under /api; 400 where anything is validated; 404
 * where a path names a resource; 413 and 415 where a body is read; 401 and 403 where a scope is needed.
 */
function edgeErrors(op: Operation): number[] {
  const statuses = [429];
  const params = op.parameters ?? [];
  if (params.length || op.requestBody) statuses.push(400);
  if (params.some((p) => p.in === "path")) statuses.push(404);
  if (op.requestBody) statuses.push(413, 415);
  if (op["x-scope"]) statuses.push(401, 403);
  return statuses;
}

/**
 * The OpenAPI 3.1 document of every /api route of `app`, from the routes' own schemas: parameters,
 * bodies and responses as the routes validate them, shared models once under components.
 */
export function openApiDocument(app: AnyElysia, head: Json, exclude: RegExp[]): Json {
  const generated = toOpenAPISchema(app, { paths: exclude }) as { paths: Record<string, Record<string, Operation>> };
  const paths: Record<string, Record<string, Operation>> = {};
  for (const [path, item] of Object.entries(generated.paths)) {
    // Elysia answers a path with or without its trailing slash; the document names it once, without
    const name = path.length > 1 ? path.replace(/\/$/, "") : path;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      if (op.requestBody?.content && "application/json" in op.requestBody.content)
        op.requestBody.content = { "application/json": op.requestBody.content["application/json"] };
      op.responses ??= {};
      for (const status of edgeErrors(op)) op.responses[status] ??= errorResponse(status);
      for (const [status, response] of Object.entries(op.responses))
        if (Number(status) >= 400 && isObject(response)) response.description = ERROR_MEANINGS[Number(status)] ?? response.description;
      (paths[name] ??= {})[method] = op;
    }
  }
  const schemas = Object.fromEntries(
    Object.entries(SHARED_MODELS).map(([k, v]) => [k, referenceShared(normalizeSchema(JSON.parse(JSON.stringify(v))))]),
  );
  const components = (head.components ?? {}) as Json;
  return {
    openapi: "3.1.0",
    ...head,
    paths: referenceShared(normalizeSchema(paths)),
    components: { ...components, schemas },
  };
}
