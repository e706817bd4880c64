/** The redirect benchmark's figures: the rounds, the median round, CPU per redirect by thread, and the journal's and the baseline's comparisons. */
import type { LoadResult } from "./_load";
import { loadavg } from "node:os";
import { perThread } from "./_thread-cpu";

type Servers<T> = { bare: T; app: T; plain: T; base: T; reads: T };

/** What the measured rounds gave (plains, bases and reads are null when that server did not run). */
export interface Rounds {
  linkKind: string;
  tool: string;
  connections: number;
  rounds: number;
  duration: number;
  loadStart: string;
  baseCommit: string;
  bares: LoadResult[];
  apps: LoadResult[];
  plains: LoadResult[] | null;
  bases: LoadResult[] | null;
  reads: LoadResult[] | null;
  /** server CPU µs, summed over the rounds */
  cpu: Servers<number>;
  /** the same, thread by thread */
  threads: Servers<Map<string, number>>;
  completed: number;
  bareCompleted: number;
}

export const medianOf = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const ms = (v: number) => `${+v.toFixed(2)} ms`;

/** Prints the single-node figures; returns the median round and the row format the cluster figures reuse. */
export function reportRounds(r: Rounds): { mid: number; row: (name: string, res: LoadResult) => string } {
  const { linkKind, tool, connections, rounds, duration, loadStart, baseCommit, bares, apps, cpu, threads, completed, bareCompleted } = r;
  const plain = r.plains !== null;
  const base = r.bases !== null;
  const plains = r.plains ?? [];
  const bases = r.bases ?? [];
  const ratios = apps.map((r, i) => r.rps / bares[i]!.rps);
  const mid = [...ratios.keys()].sort((x, y) => ratios[x]! - ratios[y]!)[Math.floor(rounds / 2)]!;
  const row = (name: string, r: LoadResult) =>
    `${name.padEnd(12)} ${String(Math.round(r.rps)).padStart(8)} req/s   p50 ${ms(r.p50).padStart(8)}   p99 ${ms(r.p99).padStart(8)}   errors ${r.errors}   302s ${r.redirects}`;
  console.log(
    `redirect benchmark (${linkKind === "rules" ? "a link with 20 rules, none matching, and 3 variants" : linkKind === "macros" ? "a link whose target has macros" : "a plain link"}): load from ${tool}, ${connections} connections, ${rounds} alternating rounds of ${duration} s; ${navigator.hardwareConcurrency} CPUs, ` +
      `load average ${loadavg()[0]!.toFixed(1)} at the end (${loadStart} at the start), Bun ${Bun.version}`,
  );
  for (let i = 0; i < rounds; i++)
    console.log(
      `  round ${i + 1}: bare ${Math.round(bares[i]!.rps)} req/s (p99 ${ms(bares[i]!.p99)}), app ${Math.round(apps[i]!.rps)} req/s (p99 ${ms(apps[i]!.p99)}), ratio ${ratios[i]!.toFixed(2)}`,
    );
  console.log(`median round (${mid + 1}):`);
  console.log(row("bare 302", bares[mid]!));
  console.log(row("app /<code>", apps[mid]!));
  console.log(
    `throughput ratio app/bare: ${ratios[mid]!.toFixed(2)} (median of the rounds' ratios; target ≥ 0.80), mean ${(ratios.reduce((a, b) => a + b) / rounds).toFixed(2)}; ` +
      `app p99 median over rounds ${ms(medianOf(apps.map((r) => r.p99)))}, worst ${ms(Math.max(...apps.map((r) => r.p99)))} (target < 5 ms); ` +
      `bare p99 median ${ms(medianOf(bares.map((r) => r.p99)))}`,
  );
  const perReq = { bare: cpu.bare / bareCompleted, app: cpu.app / completed };
  console.log(
    `server CPU per redirect: bare ${perReq.bare.toFixed(1)} µs, app ${perReq.app.toFixed(1)} µs (all threads, including click recording); ` +
      `CPU-bound throughput ratio ${(perReq.bare / perReq.app).toFixed(2)}`,
  );
  if (threads.app.size)
    console.log(`  by thread: app ${perThread(threads.app, completed)}; bare ${perThread(threads.bare, bareCompleted)}`);
  if (plain) {
    const plainRatios = plains.map((r, i) => r.rps / bares[i]!.rps);
    const costs = plainRatios.map((r, i) => r - ratios[i]!);
    const plainCpu = cpu.plain / plains.reduce((n, r) => n + r.redirects, 0);
    console.log(
      `without the click journal: ratio ${medianOf(plainRatios).toFixed(2)} (median), per round ${plainRatios.map((r) => r.toFixed(2)).join(" ")}; CPU per redirect ${plainCpu.toFixed(1)} µs; ` +
        `p99 median ${ms(medianOf(plains.map((r) => r.p99)))}`,
    );
    if (threads.plain.size)
      console.log(
        `  by thread: ${perThread(
          threads.plain,
          plains.reduce((n, r) => n + r.redirects, 0),
        )}`,
      );
    console.log(
      `the journal's cost: ${medianOf(costs).toFixed(3)} of the ratio (median over rounds of the no-journal ratio minus the app's; per round ${costs.map((c) => c.toFixed(3)).join(" ")}; budget 0.03), ` +
        `${(perReq.app - plainCpu).toFixed(2)} µs CPU per redirect`,
    );
  }
  if (base) {
    const baseRatios = bases.map((r, i) => r.rps / bares[i]!.rps);
    const diffs = baseRatios.map((r, i) => r - ratios[i]!);
    const baseCpu = cpu.base / bases.reduce((n, r) => n + r.redirects, 0);
    console.log(
      `the baseline (${baseCommit}): ratio ${medianOf(baseRatios).toFixed(2)} (median), per round ${baseRatios.map((r) => r.toFixed(2)).join(" ")}; CPU per redirect ${baseCpu.toFixed(1)} µs; ` +
        `p99 median ${ms(medianOf(bases.map((r) => r.p99)))}`,
    );
    if (threads.base.size)
      console.log(
        `  by thread: ${perThread(
          threads.base,
          bases.reduce((n, r) => n + r.redirects, 0),
        )}`,
      );
    console.log(
      `this app against the baseline: ${medianOf(diffs).toFixed(3)} of the ratio lower (median over rounds of the baseline's ratio minus the app's; per round ${diffs.map((c) => c.toFixed(3)).join(" ")}), ` +
        `${(perReq.app - baseCpu).toFixed(2)} µs CPU per redirect more`,
    );
    if (plain) {
      // what came after the baseline besides the journal: the same app with its journal off, against the baseline
      const rest = plains.map((r, i) => baseRatios[i]! - r.rps / bares[i]!.rps);
      console.log(
        `  of which not the journal (this app without its journal against the baseline): ${medianOf(rest).toFixed(3)} of the ratio lower (median over rounds; per round ${rest.map((c) => c.toFixed(3)).join(" ")})`,
      );
    }
  }
  if (r.reads) reportCeiling(r.reads, bares, ratios, cpu.reads, perReq.bare);
  return { mid, row };
}

/** `--ceiling`: the reads-only server against bare, round by round, and against the app's ratio. */
function reportCeiling(reads: LoadResult[], bares: LoadResult[], ratios: number[], cpu: number, bareCpu: number) {
  const readsRatios = reads.map((r, i) => r.rps / bares[i]!.rps);
  const readsCpu = cpu / reads.reduce((n, r) => n + r.redirects, 0);
  console.log(
    `the ceiling (a bare server that reads the peer's address, three headers and the URL, and records nothing): ratio ${medianOf(readsRatios).toFixed(2)} ` +
      `(median), per round ${readsRatios.map((r) => r.toFixed(2)).join(" ")}; CPU per redirect ${readsCpu.toFixed(1)} µs (${(readsCpu / bareCpu).toFixed(2)}× bare's); ` +
      `p99 median ${ms(medianOf(reads.map((r) => r.p99)))}; the app reaches ${(medianOf(ratios) / medianOf(readsRatios)).toFixed(2)} of it`,
  );
}
