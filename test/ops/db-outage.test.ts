/**
 * A PostgreSQL outage under load, for real: two `bun main.ts` nodes on one PostgreSQL server, a
 * short link cached on both, visitors following it on both nodes (each visit with a Referer of its
 * own, so every answered redirect can be traced to its stored click), and the server stopped for
 * longer than any retry, then started again. While it is down a cached link keeps redirecting, the
 * API answers 503 `database_unavailable` with Retry-After (never 500), /livez 200 and /readyz 503,
 * and each node logs the outage in a few lines; once it is back, every answered redirect is stored
 * exactly once.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { eventually } from "../helpers/eventually";
import { FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { serviceNodesForFile, type ServiceNode } from "../helpers/service-nodes";
import { signInitData } from "../helpers/telegram-login";
import { expectEveryVisitStoredOnce, tracedVisits } from "../helpers/traced-visits";

setDefaultTimeout(180_000);

/** How long PostgreSQL stays down: longer than every retry and timeout of the nodes (the writer retries every second, without end). */
const OUTAGE_MS = 20_000;
const VISITORS_PER_NODE = 4;
/** Each visitor follows the link at most once per this many ms: a bounded load (about 400 clicks a second over both nodes). */
const PACE_MS = 20;

const cluster = serviceNodesForFile("linkbot-outage-", ["a", "b"], { env: (port) => ({ BASE_URL: `http://127.0.0.1:${port}` }) });
const { nodes } = cluster;

const linesOf = (n: ServiceNode) => (n.out + n.err).split("\n").filter(Boolean).length;

test("PostgreSQL stopped under load: cached links redirect, the API answers 503, and every answered click is stored once when it returns", async () => {
  const init = signInitData({ id: 901, username: "ops", first_name: "O" }, new Date(), FAKE_BOT_TOKEN);
  const session = (await (
    await fetch(`${nodes[0]!.url}/api/auth/msgr`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ initData: init }),
    })
  ).json()) as { accessToken: string };
  const auth = { authorization: `Bearer ${session.accessToken}` };
  const made = await fetch(`${nodes[0]!.url}/api/links`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ url: "https://target.example/outage" }),
  });
  expect(made.status).toBe(201);
  const { id: linkId, code } = (await made.json()) as { id: number; code: string };

  const traffic = tracedVisits(nodes, code, VISITORS_PER_NODE, PACE_MS);
  await eventually(() => traffic.answered.length >= 200, "redirects before the outage", 20_000);
  const before = nodes.map(linesOf);

  await cluster.pg.halt();
  const downAt = Date.now();
  // during the outage, on every node: the cached link redirects; the API says the database is unavailable
  for (const n of nodes) {
    const during = traffic.answered.length;
    await eventually(() => traffic.answered.length >= during + 50, `redirects on ${n.name} during the outage`, 10_000);
    const api = await fetch(`${n.url}/api/links`, { headers: auth });
    expect([n.name, api.status, api.headers.get("retry-after"), ((await api.json()) as { error: string }).error]).toEqual([
      n.name,
      503,
      "5",
      "database_unavailable",
    ]);
    expect([n.name, (await fetch(`${n.url}/livez`)).status, (await fetch(`${n.url}/readyz`)).status]).toEqual([n.name, 200, 503]);
  }
  const answeredDuringOutage = traffic.answered.length;
  await Bun.sleep(Math.max(0, OUTAGE_MS - (Date.now() - downAt))); // the outage itself lasts this long (real time: the server is a real process)
  await cluster.pg.resume();
  await eventually(
    async () => (await fetch(`${nodes[1]!.url}/api/links`, { headers: auth })).status === 200,
    "the API to answer again",
    30_000,
  );
  await traffic.stop();

  const answered = traffic.answered;
  expect(answered.length).toBeGreaterThan(answeredDuringOutage);
  expect([...traffic.other]).toEqual([]); // no visitor saw anything but a redirect
  await expectEveryVisitStoredOnce(cluster.pg, linkId, answered).catch((e) => {
    console.log(
      nodes
        .map((n) => n.out + n.err)
        .join("\n----\n")
        .slice(-8000),
    );
    throw e;
  });

  // the outage took a few log lines per node, not one per request or retry; nothing was dropped and nothing answered 500
  for (const [i, n] of nodes.entries()) {
    const logs = n.out + n.err;
    expect([n.name, logs.includes("not written"), / 500 |internal_error|unhandled error/.test(logs)]).toEqual([n.name, false, false]);
    expect(linesOf(n) - before[i]!).toBeLessThan(60);
  }
  console.log(
    `outage ${OUTAGE_MS / 1000} s: ${answered.length} redirects answered, ${answeredDuringOutage} by the end of the checks; log lines during it: ${nodes.map((n, i) => linesOf(n) - before[i]!).join(", ")}`,
  );
});
