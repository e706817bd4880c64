import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers/app";

// Redocly starts in a second process: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

const ROOT = join(import.meta.dir, "..", "..");
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

let t: TestApp;
let doc: any;
beforeAll(async () => {
  t = createTestApp();
  doc = (await t.request("GET", "/api/docs/json")).json;
});
afterAll(() => t.close());

const operations = () =>
  Object.entries<Record<string, any>>(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m] })),
  );

test("the served document is OpenAPI 3.1 that Redocly's recommended rules pass without a problem", async () => {
  const dir = mkdtempSync(join(tmpdir(), "linkbot-openapi-"));
  try {
    const file = join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(doc));
    const lint = Bun.spawn(
      [
        process.execPath,
        join(ROOT, "node_modules/@redocly/cli/bin/cli.js"),
        "lint",
        file,
        "--config",
        join(ROOT, "redocly.yaml"),
        "--format=json",
      ],
      {
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [out, code] = await Promise.all([new Response(lint.stdout).text(), lint.exited]);
    const report = JSON.parse(out.slice(out.indexOf("{"), out.lastIndexOf("}") + 1));
    const problems = report.problems.map((p: any) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`);
    expect(problems).toEqual([]);
    expect(code).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(doc.openapi).toBe("3.1.0");
  expect(JSON.stringify(doc)).not.toContain('"nullable"'); // 3.0's word; 3.1 says type: [..., "null"]
});

test("every operation documents its success body and the edge's errors with the one Error schema", () => {
  const ops = operations();
  expect(ops.length).toBeGreaterThan(90);
  for (const { path, method, op } of ops) {
    const where = `${method.toUpperCase()} ${path}`;
    const success = Object.entries<any>(op.responses).filter(([s]) => s.startsWith("2"));
    expect([where, success.length > 0 && success.every(([, r]) => r.content)]).toEqual([where, true]);
    expect([where, op.responses["429"]?.content["application/json"].schema]).toEqual([where, { $ref: "#/components/schemas/Error" }]);
    if (op["x-scope"]) expect([where, Object.keys(op.responses)]).toEqual([where, expect.arrayContaining(["401", "403"])]);
    if (op.requestBody) expect([where, Object.keys(op.responses)]).toEqual([where, expect.arrayContaining(["400", "413", "415"])]);
    for (const [status, response] of Object.entries<any>(op.responses))
      if (Number(status) >= 400)
        expect([where, status, response.content["application/json"].schema]).toEqual([
          where,
          status,
          { $ref: "#/components/schemas/Error" },
        ]);
  }
  expect(doc.components.schemas.Error).toMatchObject({ type: "object", required: ["error", "message"] });
});

test("path ids are integers; URLs, emails, hostnames, times and enums carry their formats", () => {
  for (const { path, method, op } of operations())
    for (const p of op.parameters ?? [])
      if (p.in === "path" && p.name === "id" && !path.startsWith("/api/webhooks/deliveries/"))
        expect([method, path, p.schema.type]).toEqual([method, path, "integer"]);
  const body = (path: string, method: string) => doc.paths[path][method].requestBody.content["application/json"].schema;
  const ok = (path: string, method: string, status = "200") => doc.paths[path][method].responses[status].content["application/json"].schema;
  expect(body("/api/links", "post").properties.url.format).toBe("uri");
  expect(body("/api/auth/email/send-otp", "post").properties.email.format).toBe("email");
  expect(body("/api/domains", "post").properties.hostname.format).toBe("hostname");
  expect(ok("/api/links/{id}", "get").properties.created_at.format).toBe("date-time");
  expect(ok("/api/links/{id}", "get").properties.webhook_method.enum).toEqual(["GET", "POST"]);
  expect(ok("/api/links", "post", "201").properties.trackingUrl.format).toBe("uri");
  expect(doc.paths["/api/webhooks/deliveries/{id}/redeliver"].post.parameters[0].schema.format).toBe("uuid");
  // the list's total count is documented as a header of its answer
  expect(doc.paths["/api/links"].get.responses["200"].headers["X-Total-Count"].schema.type).toBe("integer");
});
