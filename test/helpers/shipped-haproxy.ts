/**
 * The shipped deploy/haproxy.cfg in front of nodes on this machine: read from deploy/ and changed
 * only where it must be (its listening ports and the nodes' addresses), then started.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventually } from "./eventually";
import { freePort } from "./free-port";
import { ROOT } from "./process";
import { cleanUpAtExit } from "./reaper";

export const SHIPPED_HAPROXY = join(ROOT, "deploy/haproxy.cfg");

export interface RunningHaproxy {
  /** the front, as visitors reach it */
  url: string;
  /** the stats page */
  statsUrl: string;
  proc: ReturnType<typeof Bun.spawn>;
  /** what HAProxy logged so far (servers going down and up, at level warning) */
  log(): string;
}

/**
 * The shipped configuration with `127.0.0.1:<port>` for each node (`ports[i]` is node i+1's, in
 * every backend), the front and the stats page on free loopback ports, and `tune` applied last (a
 * test that only checks routing may shorten the health checks' interval); written into `dir` and
 * started. Resolves once the front answers.
 */
export async function startShippedHaproxy(
  dir: string,
  ports: number[],
  tune: (config: string) => string = (c) => c,
): Promise<RunningHaproxy> {
  const [front, stats] = [await freePort(), await freePort()];
  let config = readFileSync(SHIPPED_HAPROXY, "utf8")
    .replace(/^(\s*bind) :80$/m, `$1 127.0.0.1:${front}`)
    .replace(/^(\s*bind) :8404$/m, `$1 127.0.0.1:${stats}`);
  ports.forEach((port, i) => (config = config.replace(new RegExp(`(server node${i + 1}) \\S+`, "g"), `$1 127.0.0.1:${port}`)));
  config = tune(config);
  const cfg = join(dir, "haproxy.cfg");
  writeFileSync(cfg, config);
  const proc = Bun.spawn(["haproxy", "-db", "-f", cfg], { stdout: "ignore", stderr: "pipe" });
  cleanUpAtExit({ kill: proc.pid });
  let log = "";
  void (async () => {
    for await (const chunk of proc.stderr.pipeThrough(new TextDecoderStream())) log += chunk;
  })();
  const url = `http://127.0.0.1:${front}`;
  await eventually(
    async () => {
      if (proc.exitCode !== null) throw new Error(`HAProxy exited: ${log}`);
      return (await fetch(`${url}/livez`).catch(() => null))?.status === 200;
    },
    "HAProxy to answer",
    15_000,
  );
  return { url, statsUrl: `http://127.0.0.1:${stats}/`, proc, log: () => log };
}
