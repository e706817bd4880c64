/**
 * The cost of the /api plumbing (rate limiter, auth, body cap, error model) on a real socket:
 * requests per second and latency for /healthz (none of it), an authenticated GET /api/tokens
 * (limiter + JWT + DB read), an unauthenticated 401 and an unknown /api path (JSON 404).
 * Usage: bun run bench api-overhead [seconds=5] [connections=20]
 */
import autocannon from "autocannon";
import { createTestApp } from "../test/helpers/app";

const seconds = Number(process.argv[2] ?? 5);
const connections = Number(process.argv[3] ?? 20);
const t = createTestApp({ env: { RATE_LIMIT_API: "1000000", RATE_LIMIT_AUTH: "1000000" } });
const { token } = await t.telegramUser();
const server = t.app.listen({ hostname: "127.0.0.1", port: 0 });
const base = `http://127.0.0.1:${server.server!.port}`;

const cases: [string, string, Record<string, string>][] = [
  ["GET /healthz", "/healthz", {}],
  ["GET /api/tokens (JWT)", "/api/tokens", { authorization: `Bearer ${token}` }],
  ["GET /api/tokens (no auth → 401)", "/api/tokens", {}],
  ["GET /api/nope (JSON 404)", "/api/nope", {}],
];

console.log(`${seconds} s per case, ${connections} connections, Bun ${Bun.version}\n`);
console.log("case".padEnd(34), "req/s".padStart(9), "p50 ms".padStart(8), "p99 ms".padStart(8));
for (const [label, path, headers] of cases) {
  const r = await autocannon({ url: base + path, headers, connections, duration: seconds });
  console.log(
    label.padEnd(34),
    String(Math.round(r.requests.average)).padStart(9),
    String(r.latency.p50).padStart(8),
    String(r.latency.p99).padStart(8),
  );
}
await server.stop(true);
t.close();
