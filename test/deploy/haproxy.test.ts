import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { eventually } from "../helpers/eventually";
import { tempDir } from "../helpers/reaper";
import { SHIPPED_HAPROXY, startShippedHaproxy } from "../helpers/shipped-haproxy";
import { cleanEnv, spawnService, ROOT } from "../helpers/process";

// spawns HAProxy and three service processes: more than bun's 5 s default on a busy machine
setDefaultTimeout(60_000);

let dir: string;
const procs: { proc: { kill(signal?: number | NodeJS.Signals): void; exited: Promise<number> } }[] = [];

beforeAll(() => void (dir = tempDir("linkbot-haproxy-")));
afterAll(async () => {
  for (const p of procs) p.proc.kill("SIGKILL");
  await Promise.all(procs.map((p) => p.proc.exited));
  rmSync(dir, { recursive: true, force: true });
});

test("the committed HAProxy configuration is valid", async () => {
  const proc = Bun.spawn(["haproxy", "-c", "-f", SHIPPED_HAPROXY], { stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  expect({ code, said: (out + err).trim() }).toEqual({ code: 0, said: "Configuration file is valid" });
});

// the balancer's part of cluster mode: health checks and retries around a dead node (the nodes run
// on SQLite here, each with its own DATA_DIR, since this build has no PostgreSQL data layer yet)
test("behind the committed configuration, requests keep being answered when a node is killed", async () => {
  const nodes = [];
  for (let i = 1; i <= 3; i++) {
    const svc = spawnService(
      [join(ROOT, "main.ts")],
      cleanEnv({ DATA_DIR: join(dir, `node${i}`), PORT: "0", HOST: "127.0.0.1", TRUST_PROXY: "true", DRAIN_SECONDS: "3" }),
    );
    procs.push(svc);
    nodes.push(svc);
  }
  const ports = await Promise.all(nodes.map(async (n) => Number((await n.waitForOutput(/HTTP server listening on [^:]+:(\d+)/))[1])));
  // the shipped file, with this machine's addresses in place of the example ones, checked every 200 ms
  const proxy = await startShippedHaproxy(dir, ports, (c) => c.replaceAll("default-server inter 2s", "default-server inter 200ms"));
  procs.push(proxy);
  const log = proxy.log;
  const haproxy = proxy.proc;
  const url = `${proxy.url}/healthz`;
  const up = async () => {
    if (haproxy.exitCode !== null) throw new Error(`HAProxy exited: ${log()}`);
    return (await fetch(url).catch(() => null))?.status === 200;
  };
  await eventually(up, "HAProxy to answer", 15_000);

  const answers = async (n: number, path = "/healthz") => {
    const got: number[] = [];
    for (let i = 0; i < n; i++) got.push((await fetch(url.replace("/healthz", path))).status);
    return got;
  };
  expect(await answers(9)).toEqual(Array(9).fill(200));
  nodes[0]!.proc.kill("SIGKILL");
  await nodes[0]!.proc.exited;
  // right after the kill (before any health check noticed) and later: every request is answered
  expect(await answers(30)).toEqual(Array(30).fill(200));
  // the health check took the dead node out, and only that one
  await eventually(
    () => log().includes("Server visitors/node1 is DOWN") && log().includes("Server api/node1 is DOWN"),
    "HAProxy to mark the killed node down",
  );
  expect(await answers(6)).toEqual(Array(6).fill(200));
  expect(log()).not.toMatch(/(visitors|api)\/node[23] is DOWN/);

  // a node told to stop drains: its /readyz fails, HAProxy takes it out of the API's rotation while it
  // still answers; visitors' requests reach it until it closes, then go to another node; none fails
  nodes[1]!.proc.kill("SIGTERM");
  const during: number[] = [];
  await eventually(
    async () => (during.push(...(await answers(1, "/livez"))), log().includes("Server api/node2 is DOWN")),
    "HAProxy to take the draining node out of the API's rotation",
    10_000,
  );
  expect(nodes[1]!.proc.exitCode).toBeNull(); // taken out before it stopped serving
  expect(during.filter((s) => s !== 200)).toEqual([]);
  expect(await answers(6, "/livez")).toEqual(Array(6).fill(200));
  expect(await nodes[1]!.exit()).toBe(0);
  expect(await answers(6, "/livez")).toEqual(Array(6).fill(200));
});
