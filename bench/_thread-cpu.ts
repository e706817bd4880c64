/** CPU time of a process by thread, from /proc (Linux), for the redirect benchmark. */
import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time (µs) of each thread of process `pid`, summed by thread: `main user` and `main sys` for the
 * thread whose id is the process id (the request side), else the kernel's name of the thread (the click writer is a
 * worker thread; JavaScriptCore's collector and Bun's pools have their own). Read from
 * /proc/<pid>/task/<tid>/stat (utime and stime, in clock ticks of 10 ms); empty where /proc is missing.
 */
export function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const [user, system] = [Number(fields[11]) * 10_000, Number(fields[12]) * 10_000];
      if (tid === String(pid)) {
        // the request side, its user and kernel time apart
        out.set("main user", (out.get("main user") ?? 0) + user);
        out.set("main sys", (out.get("main sys") ?? 0) + system);
        continue;
      }
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      out.set(name, (out.get(name) ?? 0) + user + system);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/** `after - before`, thread by thread (threads that started meanwhile count from 0). */
export function threadDelta(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  return new Map([...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)]));
}

/** The threads that used most CPU per request, as "main 7.9 µs, Worker 2.1 µs, other 0.6 µs". */
export function perThread(cpu: Map<string, number>, requests: number): string {
  const rows = [...cpu].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
  const top = rows.slice(0, 4);
  const rest = rows.slice(4).reduce((n, [, v]) => n + v, 0);
  return [
    ...top.map(([k, v]) => `${k} ${(v / requests).toFixed(2)} µs`),
    ...(rest ? [`other ${(rest / requests).toFixed(2)} µs`] : []),
  ].join(", ");
}
