import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import fc from "fast-check";
import { createTestApp, type TestApp } from "../helpers/app";
import { FAKE_BOT_TOKEN, FakeBotApi } from "../helpers/fake-bot-api";

// ~100 operations, each driven with generated requests: more than bun's 5 s default
setDefaultTimeout(90_000);

/**
 * The API as an outside fuzzer sees it: only the served OpenAPI document says what to send. For every
 * operation, requests generated from its schemas (valid ones, and ones with one part broken) are sent
 * with a signed-in token holding every scope; any 5xx, or any status the document does not list for
 * that operation, is a failure.
 */

type Schema = Record<string, any>;
type Operation = {
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
};
type Sent = { method: string; path: string; query: string; body?: unknown; broken?: string };

const RUNS_VALID = 25;
const RUNS_INVALID = 15;

let t: TestApp;
let fake: FakeBotApi;
let token: string;
let doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

beforeAll(async () => {
  // the bot configured against the fake Bot API: sends to the chat and channel calls answer as in production
  fake = new FakeBotApi().start().addChat({ id: -1001, type: "channel", title: "Fuzz", username: "fuzzchan" });
  fake.members.set("-1001:42", { status: "creator" }); // the signed-in user (Telegram id 42) owns the channel
  t = createTestApp({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url } });
  token = (await t.telegramUser()).token;
  // a few things to find, so that generated small ids reach the resources and not only 404
  const link = await t.request("POST", "/api/links", { token, body: { url: "https://fuzz.example/a" } });
  expect(link.status).toBe(201);
  expect((await t.request("POST", "/api/tags", { token, body: { name: "fuzz" } })).status).toBe(201);
  const folder = await t.request("POST", "/api/secure/folders", { token, body: { name: "fuzz" } });
  expect(folder.status).toBe(201);
  const file = await t.request("POST", "/api/secure/files", {
    token,
    body: { folderId: folder.json.id, contentType: "text", textContent: "hi" },
  });
  expect(file.status).toBe(201);
  expect((await t.request("POST", "/api/tracking", { token, body: { name: "fuzz", keyword: "fuzz" } })).status).toBe(201);
  const channel = await t.request("POST", "/api/channels", { token, body: { chat: "@fuzzchan" } });
  expect(channel.status).toBe(201);
  expect((await t.request("POST", `/api/channels/${channel.json.id}/invites`, { token, body: { name: "fuzz" } })).status).toBe(201);
  doc = (await t.request("GET", "/api/docs/json")).json;
});
afterAll(async () => {
  t.close();
  await fake.stop();
});

const resolve = (s: Schema): Schema => (s?.$ref ? doc.components.schemas[s.$ref.split("/").pop()!]! : s);

/** Values a schema accepts (as far as a generator can know: `pattern` via stringMatching, formats by kind). */
function valid(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.anyOf) return fc.oneof(...s.anyOf.map((b: Schema) => valid({ ...s, anyOf: undefined, ...b }, depth)));
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : ["string", "integer", "boolean"];
  return fc.oneof(...types.map((type) => ofType(s, type, depth)));
}

function ofType(s: Schema, type: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer": {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : min + 100_000);
      // small ids find the resources made above
      return fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: Math.max(min, Math.min(1, max)), max: Math.min(max, Math.max(min, 3)) }) },
        fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) }),
      );
    }
    case "number": {
      const min = s.minimum ?? s.exclusiveMinimum ?? -1e6;
      const max = s.maximum ?? s.exclusiveMaximum ?? 1e9;
      return fc.double({
        min,
        max,
        noNaN: true,
        noDefaultInfinity: true,
        minExcluded: s.exclusiveMinimum !== undefined,
        maxExcluded: s.exclusiveMaximum !== undefined,
      });
    }
    case "string": {
      if (s.pattern)
        return fc
          .stringMatching(new RegExp(s.pattern))
          .filter((v) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity));
      const sized = (a: fc.Arbitrary<string>) => a.filter((v) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity));
      switch (s.format) {
        case "date-time":
          return fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
        case "email":
          return sized(fc.emailAddress());
        case "uri":
          return sized(fc.webUrl());
        case "hostname":
          return sized(fc.domain());
        case "uuid":
          return fc.uuid();
      }
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40) });
    }
    case "array": {
      if (depth > 4) return fc.constant([]);
      const minLength = s.minItems ?? 0;
      return fc.array(s.items ? valid(s.items, depth + 1) : fc.jsonValue(), {
        minLength,
        maxLength: Math.max(minLength, Math.min(s.maxItems ?? 4, 4)),
      });
    }
    case "object": {
      if (!s.properties || depth > 4) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries<Schema>(s.properties)) record[k] = valid(v, depth + 1);
      return fc.record(record, { requiredKeys: s.required ?? [] });
    }
  }
  return fc.jsonValue({ maxDepth: 1 });
}

/** Values a schema should refuse, or that a careless server mishandles: wrong types, fractions, huge and negative numbers. */
const junk = fc.oneof(
  fc.constantFrom("abc", "1.5", "-1", "0", "1e300", "NaN", "", " ", "9".repeat(30), "%00", "null", "[]", "{}", "true"),
  fc.string({ maxLength: 20 }),
);
const junkJson = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(1.5, -1, 1e300, "", null, [], {}, true, "x".repeat(5000)));

function requests(path: string, method: string, op: Operation): fc.Arbitrary<Sent> {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === "path");
  const queryParams = params.filter((p) => p.in === "query");
  const bodySchema = op.requestBody?.content["application/json"]?.schema;
  // a path value "." or ".." cannot be sent: the URL resolves it away and names another path
  // (/api/secure/requests/./upload is /api/secure/requests/upload), as for the breakers below
  const sendable = (v: string) => v !== "." && v !== "..";
  const pathArb = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, valid(p.schema).map(String).filter(sendable)])));
  const queryArb = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, valid(p.schema).map(String)])), {
    requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
  });
  const bodyArb = bodySchema ? valid(bodySchema) : fc.constant(undefined);
  const good = fc.record({ pathValues: pathArb, queryValues: queryArb, body: bodyArb });
  const build = (pathValues: Record<string, string>, queryValues: Record<string, string>, body: unknown, broken?: string): Sent => ({
    method: method.toUpperCase(),
    path: path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(pathValues[name] ?? "1")),
    query: new URLSearchParams(queryValues).toString(),
    body,
    broken,
  });
  const validRequests = good.map(({ pathValues, queryValues, body }) => build(pathValues, queryValues, body));
  const breakers: fc.Arbitrary<Sent>[] = [];
  // no empty segment (GET /api/links/ is another route, the list) and no dot segment: those name
  // other paths, not broken ids
  for (const p of pathParams)
    breakers.push(
      fc
        .tuple(
          good,
          junk.filter((v) => v !== "" && sendable(v)),
        )
        .map(([g, bad]) => build({ ...g.pathValues, [p.name]: bad }, g.queryValues, g.body, `path ${p.name}`)),
    );
  for (const p of queryParams)
    breakers.push(
      fc.tuple(good, junk).map(([g, bad]) => build(g.pathValues, { ...g.queryValues, [p.name]: bad }, g.body, `query ${p.name}`)),
    );
  if (bodySchema) {
    breakers.push(fc.tuple(good, junkJson).map(([g, bad]) => build(g.pathValues, g.queryValues, bad, "body")));
    const props = Object.keys(resolve(bodySchema).properties ?? {});
    if (props.length)
      breakers.push(
        fc
          .tuple(good, fc.constantFrom(...props), junkJson)
          .map(([g, key, bad]) => build(g.pathValues, g.queryValues, { ...(g.body as object), [key]: bad }, `body.${key}`)),
      );
  }
  return breakers.length
    ? fc.oneof({ weight: RUNS_VALID, arbitrary: validRequests }, { weight: RUNS_INVALID, arbitrary: fc.oneof(...breakers) })
    : validRequests;
}

test("every operation of the document answers generated requests with a documented status, never 5xx", async () => {
  // deletes last, so that the things made above are still there for the other operations
  const operations = Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })))
    .sort((a, b) => Number(a.method === "delete") - Number(b.method === "delete"));
  expect(operations.length).toBeGreaterThan(90);
  const failures: string[] = [];
  const reached2xx = new Set<string>();
  let sent = 0;
  const started = performance.now();
  for (const { path, method, op } of operations) {
    const documented = Object.keys(op.responses);
    const result = await fc.check(
      fc.asyncProperty(requests(path, method, op), async (r) => {
        sent++;
        const res = await t.request(r.method, `${r.path}${r.query ? `?${r.query}` : ""}`, { token, body: r.body });
        if (res.status >= 200 && res.status < 300) reached2xx.add(`${method} ${path}`);
        return res.status < 500 && documented.includes(String(res.status));
      }),
      { numRuns: RUNS_VALID + RUNS_INVALID },
    );
    if (result.failed) {
      const [r] = result.counterexample as [Sent];
      const res = await t.request(r.method, `${r.path}${r.query ? `?${r.query}` : ""}`, { token, body: r.body });
      failures.push(
        `${method.toUpperCase()} ${path}: ${res.status} (documented ${documented.join(",")}) for ${r.method} ${r.path}?${r.query} ${JSON.stringify(r.body)?.slice(0, 200)} [${r.broken ?? "valid"}] → ${res.text.slice(0, 200)} (seed ${result.seed})`,
      );
    }
  }
  console.log(
    `fuzz: ${operations.length} operations, ${sent} requests in ${Math.round(performance.now() - started)} ms; ${reached2xx.size} reached a 2xx`,
  );
  expect(failures).toEqual([]);
});
