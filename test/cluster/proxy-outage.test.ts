/**
 * The shipped HAProxy configuration (deploy/haproxy.cfg, changed only in its ports and the nodes'
 * addresses) in front of three `bun main.ts` nodes on one PostgreSQL, and PostgreSQL stopped for
 * 20 s under a bounded load through the proxy, each visit with a Referer of its own. What visitors
 * and API clients see through the proxy: every visit a 302 before, during and after the outage; the
 * API 503 `database_unavailable` with Retry-After while the database is away; the stats page showing
 * the nodes out of the API's rotation and in the visitors'. Then every answered visit is stored
 * exactly once.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { eventually } from "../helpers/eventually";
import { FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { serviceNodesForFile } from "../helpers/service-nodes";
import { signInitData } from "../helpers/telegram-login";
import { startShippedHaproxy, type RunningHaproxy } from "../helpers/shipped-haproxy";
import { expectEveryVisitStoredOnce, tracedVisits } from "../helpers/traced-visits";

setDefaultTimeout(180_000);

const OUTAGE_MS = 20_000;
/** visitors through the proxy, each following the link at most once per PACE_MS: about 250 visits a second */
const VISITORS = 6;
const PACE_MS = 20;

let proxy: RunningHaproxy;
const cluster = serviceNodesForFile("linkbot-proxy-outage-", ["node1", "node2", "node3"], {
  env: () => ({ TRUST_PROXY: "true" }),
  after: async ({ dir, nodes }) => {
    proxy = await startShippedHaproxy(
      dir,
      nodes.map((n) => n.port),
    );
  },
  stop: () => {
    proxy?.proc.kill("SIGKILL");
    return proxy?.proc.exited;
  },
});
const { nodes } = cluster;

/** Each server's state in each backend, from the stats page's CSV (`visitors/node1` → `UP`). */
async function proxyStates(): Promise<Record<string, string>> {
  const csv = await (await fetch(`${proxy.statsUrl};csv`)).text();
  const out: Record<string, string> = {};
  for (const line of csv.split("\n").slice(1)) {
    const [backend, server, ...rest] = line.split(",");
    if (server?.startsWith("node")) out[`${backend}/${server}`] = rest[15]!.split(" ")[0]!;
  }
  return out;
}
/** What the stats page shows when every node is `visitors` in the visitors' backend and `api` in the API's. */
const everyNode = (visitors: string, api = visitors) =>
  Object.fromEntries(
    (
      [
        ["visitors", visitors],
        ["api", api],
      ] as const
    ).flatMap(([b, state]) => nodes.map((n) => [`${b}/${n.name}`, state])),
  );

test("PostgreSQL stopped for 20 s behind the shipped HAProxy config: every visit a 302, the API 503 with Retry-After, nothing lost", async () => {
  const front = proxy.url;
  const init = signInitData({ id: 902, username: "ops", first_name: "O" }, new Date(), FAKE_BOT_TOKEN);
  const signIn = await fetch(`${front}/api/auth/msgr`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ initData: init }),
  });
  const auth = { authorization: `Bearer ${((await signIn.json()) as { accessToken: string }).accessToken}` };
  const made = await fetch(`${front}/api/links`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ url: "https://target.example/proxy-outage" }),
  });
  expect(made.status).toBe(201);
  const { id: linkId, code } = (await made.json()) as { id: number; code: string };
  expect(await proxyStates()).toEqual(everyNode("UP"));
  // the request id the nodes log is the proxy's, never one the client chose
  const chosen = await fetch(`${front}/api/auth/me`, { headers: { "x-request-id": "client-chosen-0001" } });
  expect(chosen.headers.get("x-request-id")).not.toBe("client-chosen-0001");
  expect(chosen.headers.get("x-request-id")).toMatch(/^[0-9A-F]+:[0-9A-F]+_/);

  const traffic = tracedVisits([{ name: "front", url: front }], code, VISITORS, PACE_MS);
  await eventually(() => traffic.answered.length >= 300, "redirects before the outage", 20_000);

  await cluster.pg.halt();
  const downAt = Date.now();
  // the proxy takes every node out of the API's rotation (its /readyz fails) and none out of the visitors'
  await eventually(
    async () => JSON.stringify(await proxyStates()) === JSON.stringify(everyNode("UP", "DOWN")),
    "the stats page to show the nodes down for the API only",
    15_000,
  ).catch(async (e) => {
    console.log(await proxyStates());
    throw e;
  });
  // the API, through the proxy, in its own error format
  const api = await fetch(`${front}/api/links`, { headers: auth });
  expect([api.status, api.headers.get("retry-after"), ((await api.json()) as { error: string }).error]).toEqual([
    503,
    "5",
    "database_unavailable",
  ]);
  const during = traffic.answered.length;
  await eventually(() => traffic.answered.length >= during + 500, "redirects during the outage", 15_000);
  await Bun.sleep(Math.max(0, OUTAGE_MS - (Date.now() - downAt))); // the outage itself lasts this long (a real server)
  const answeredInOutage = traffic.answered.length;
  await cluster.pg.resume();
  await eventually(async () => (await fetch(`${front}/api/links`, { headers: auth })).status === 200, "the API to answer again", 30_000);
  await eventually(
    async () => JSON.stringify(await proxyStates()) === JSON.stringify(everyNode("UP")),
    "every node back in rotation",
    15_000,
  );
  await traffic.stop();

  expect([...traffic.other]).toEqual([]); // no visitor saw anything but a redirect
  const figures = await expectEveryVisitStoredOnce(cluster.pg, linkId, traffic.answered);
  console.log(
    `shipped HAProxy config, PostgreSQL stopped ${OUTAGE_MS / 1000} s: ${figures.answered} visits answered 302 (${answeredInOutage} by the outage's end), ${figures.stored} stored, ${figures.lost} lost, ${figures.doubled} doubled; other answers: none`,
  );
});
