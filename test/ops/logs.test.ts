/**
 * The service's log as a log shipper reads it: every line on stdout is one JSON object with a
 * level, a time and a message; every request gets an id, returned as X-Request-Id, and every line
 * written while that request is handled (its request line, and what core logged on its way) carries
 * it. A single node does not open with a line per lease.
 */
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, ROOT, spawnService } from "../helpers/process";
import { createLogger } from "../../core/log";
import { requestContext } from "../../core/request-context";

setDefaultTimeout(60_000);
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "linkbot-logs-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Line = { level: string; time: string; msg: string; requestId?: string; [k: string]: unknown };

test("every stdout line is JSON with a level; a request's lines carry the id it is answered with", async () => {
  const svc = spawnService([join(ROOT, "main.ts")], cleanEnv({ DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1" }));
  const port = Number((await svc.waitForOutput(/listening on [^:]+:(\d+)/))[1]);
  const base = `http://127.0.0.1:${port}`;
  // no SMTP_URL: the code is written to the log, from inside the request
  const sent = await fetch(`${base}/api/auth/email/send-otp`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "ops@example.com" }),
  });
  expect(sent.status).toBeLessThan(300);
  const id = sent.headers.get("x-request-id")!;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  // an id sent by the proxy in front is kept
  const given = await fetch(`${base}/api/nothing-here`, { headers: { "x-request-id": "haproxy-0001-abcd" } });
  expect([given.status, given.headers.get("x-request-id")]).toEqual([404, "haproxy-0001-abcd"]);
  svc.proc.kill("SIGTERM");
  expect(await svc.exit()).toBe(0);

  const raw = svc.out.trimEnd().split("\n");
  const lines = raw.map((l) => {
    const parsed = JSON.parse(l) as Line;
    expect(["debug", "info", "warn", "error"]).toContain(parsed.level);
    expect(typeof parsed.msg).toBe("string");
    expect(Number.isNaN(Date.parse(parsed.time))).toBe(false);
    return parsed;
  });
  const mine = lines.filter((l) => l.requestId === id);
  expect(mine.some((l) => l.msg.startsWith("mail to ops@example.com (no SMTP_URL configured)"))).toBe(true);
  expect(mine.find((l) => l.msg === "request")).toMatchObject({
    level: "info",
    method: "POST",
    path: "/api/auth/email/send-otp",
    status: sent.status,
  });
  expect(lines.find((l) => l.requestId === "haproxy-0001-abcd" && l.msg === "request")).toMatchObject({
    path: "/api/nothing-here",
    status: 404,
  });
  // the start says who it is once, not a line per lease
  expect(lines.filter((l) => l.msg.startsWith("lease "))).toEqual([]);
  expect(lines.some((l) => l.msg === "stopped")).toBe(true);
  expect(svc.err).toBe("");
});

test("readable lines for a person: time, level, message, request id", () => {
  const lines: string[] = [];
  const log = createLogger("info", (l) => lines.push(l));
  requestContext.run({ requestId: "req-1234-5678" }, () => log.warn("link cache: read again", { code: "abc" }));
  log.error("could not stop", new Error("stuck"));
  log.debug("not shown");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z WARN link cache: read again \[req-1234-5678\] \{"code":"abc"\}$/);
  expect(lines[1]).toMatch(/^\S+ ERROR could not stop Error: stuck\n\s+at /);
});
