/**
 * The benchmarks' load generators: autocannon in this process, or Debian's wrk (one thread), each
 * sending `connections` connections with a browser User-Agent for `duration` seconds.
 */

/** One measured run, whichever tool made the load. */
export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** requests answered with the redirect */
  redirects: number;
  errors: number;
}

async function autocannonLoad(ua: string, url: string, connections: number, duration: number): Promise<LoadResult> {
  const { default: autocannon } = await import("autocannon"); // the load generator's process only
  const r: any = await new Promise((resolve, reject) =>
    autocannon({ url, connections, duration, headers: { "user-agent": ua } }, (err: Error | null, res: any) =>
      err ? reject(err) : resolve(res),
    ),
  );
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    redirects: r["3xx"],
    errors: r.errors + r.timeouts + r.non2xx - r["3xx"],
  };
}

/** A wrk latency figure ("378.00us", "1.00ms", "1.20s") in milliseconds. */
const wrkMs = (v: string) => parseFloat(v) * ({ us: 1e-3, ms: 1, s: 1e3 }[v.replace(/[\d.]+/, "") as "us" | "ms" | "s"] ?? NaN);

async function wrkLoad(ua: string, url: string, connections: number, duration: number): Promise<LoadResult> {
  const p = Bun.spawn(["wrk", "-t1", `-c${connections}`, `-d${duration}s`, "--latency", "-H", `User-Agent: ${ua}`, url], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(p.stdout).text();
  if ((await p.exited) !== 0) throw new Error(`wrk failed:\n${out}`);
  const find = (re: RegExp) => re.exec(out)?.[1] ?? "0";
  const total = Number(find(/(\d+) requests in/));
  const bad = Number(find(/Non-2xx or 3xx responses: (\d+)/));
  const socket =
    find(/Socket errors: (.*)/)
      .match(/\d+/g)
      ?.reduce((n, x) => n + Number(x), 0) ?? 0;
  return {
    rps: Number(find(/Requests\/sec:\s+([\d.]+)/)),
    p50: wrkMs(find(/^\s+50%\s+(\S+)/m)),
    p99: wrkMs(find(/^\s+99%\s+(\S+)/m)),
    redirects: total - bad,
    errors: bad + socket,
  };
}

/** One load run against a URL. */
export type Load = (url: string, connections: number, duration: number) => Promise<LoadResult>;

/** The load generator `tool` names ("autocannon" or "wrk"), sending `ua` as the User-Agent. */
export function loadGenerator(tool: string, ua: string): Load {
  if (tool !== "autocannon" && tool !== "wrk") throw new Error(`--load takes autocannon or wrk, not ${tool}`);
  if (tool === "wrk" && !Bun.which("wrk")) throw new Error("--load wrk needs wrk on the PATH (apt-get install wrk)");
  const run = tool === "wrk" ? wrkLoad : autocannonLoad;
  return (url, connections, duration) => run(ua, url, connections, duration);
}
