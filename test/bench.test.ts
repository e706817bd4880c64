import { expect, test, setDefaultTimeout } from "bun:test";
import { cleanEnv, run } from "./helpers/process";

// this file spawns processes or a browser: more than bun's 5 s default on a busy machine
setDefaultTimeout(30_000);

test("bun run bench lists the benchmarks, and refuses an unknown one with the list", async () => {
  const list = await run(["run", "bench/index.ts"], cleanEnv());
  expect(list.code).toBe(0);
  expect(list.stdout).toContain("Benchmarks (bun run bench <name>):");
  expect(list.stdout).toMatch(/^ {2}api-overhead$/m);
  expect(list.stdout).not.toMatch(/^ {2}index$/m);
  const unknown = await run(["run", "bench/index.ts", "warp-speed"], cleanEnv());
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('Unknown benchmark "warp-speed"');
  expect(unknown.stdout).toContain("api-overhead");
});

test("bench redirect runs its servers (with --ceiling, three) and finds every completed redirect recorded once, also across a SIGKILL and a restart", async () => {
  const r = await run(
    ["run", "bench/index.ts", "redirect", "--duration", "1", "--rounds", "1", "--kill-duration", "1", "--ceiling"],
    cleanEnv(),
  );
  expect(r.stderr).not.toContain("error");
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/throughput ratio app\/bare: \d+\.\d\d/);
  // --ceiling: the server that only reads what a click needs, measured in the same rounds
  expect(r.stdout).toMatch(
    /the ceiling \(a bare server that reads the peer's address, three headers and the URL, and records nothing\): ratio \d+\.\d\d \(median\), per round \d+\.\d\d; CPU per redirect \d+\.\d µs \(\d+\.\d\d× bare's\); p99 median [\d.]+ ms; the app reaches \d+\.\d\d of it/,
  );
  expect(r.stdout).toMatch(
    /clicks recorded during the measured rounds: (\d+) \(link counter \+\1\); completed redirects: \d+; every completed redirect was recorded once/,
  );
  expect(r.stdout).toMatch(
    /kill-and-restart round: \d+ redirects completed in 1 s, SIGKILL as the load ended .*; after the restart (\d+) \(link counter \+\1\); every completed redirect was recorded once/,
  );
}, 60_000);

test("bench async-seam times the async seam against the synchronous calls on SQLite", async () => {
  const r = await run(["run", "bench/index.ts", "async-seam", "--ops", "50"], cleanEnv());
  expect(r.stderr).not.toContain("error");
  expect(r.code).toBe(0);
  for (const line of [
    "row by id, sync .get()",
    "row by id, async seam",
    "20 rows, async seam",
    "transaction, sync writeTransaction",
    "transaction, async seam",
  ])
    expect(r.stdout).toMatch(new RegExp(`^ {2}${line.replace(/[.()]/g, "\\$&")} +\\d+\\.\\d\\d$`, "m"));
  expect(r.stdout).toMatch(/^transaction ratio async\/sync: \d+\.\d\d$/m);
});

test("bench click-writer measures the SQLite click writer by links, with and without the click id index", async () => {
  const r = await run(["run", "bench/index.ts", "click-writer", "--batches", "12", "--links", "1,3", "--repeat", "1"], cleanEnv());
  expect(r.stderr).not.toContain("error");
  expect(r.code).toBe(0);
  const rows = [
    ...r.stdout.matchAll(/^ +(\d+) links: ([\d.]+) µs per click; without the click id index ([\d.]+) \(the index [+-][\d.]+\)$/gm),
  ];
  expect(rows.map((m) => m[1])).toEqual(["1", "3"]);
  // µs per click of a real write: more than nothing, far less than a millisecond
  for (const m of rows) for (const v of m.slice(2).map(Number)) expect(v > 0.1 && v < 1000).toBe(true);
  // a run of no more batches than it leaves uncounted would measure nothing
  const few = await run(["run", "bench/index.ts", "click-writer", "--batches", "10"], cleanEnv());
  expect(few.code).toBe(2);
  expect(few.stderr).toContain("--batches takes a whole number above 10");
});

test("bench click-writer --postgres measures the PostgreSQL click writer the same way, on a server it starts", async () => {
  const r = await run(
    ["run", "bench/index.ts", "click-writer", "--postgres", "--batches", "11", "--links", "2", "--repeat", "1"],
    cleanEnv(),
  );
  expect(r.stderr).not.toContain("error");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("click writer on PostgreSQL: 11 batches");
  const row = /^ +2 links: ([\d.]+) µs per click; without the click id index ([\d.]+) \(the index [+-][\d.]+\)$/m.exec(r.stdout);
  expect(row).not.toBeNull();
  for (const v of row!.slice(1).map(Number)) expect(v > 0.1 && v < 1000).toBe(true);
});

test("bench visit times the visitor responder in-process, against a baseline checkout, and checks every answer was recorded", async () => {
  // the baseline is this checkout again: its plain link against this one's link with macros
  const r = await run(
    ["run", "bench/index.ts", "visit", "--link", "macros", "--batches", "2", "--repeat", "1", "--baseline", "."],
    cleanEnv(),
  );
  expect(r.stderr).not.toContain("error");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("visitor responder in-process: 2 batches of 2,000 answers");
  const rows = [
    ...r.stdout.matchAll(
      /^ {2}(this checkout|baseline \(\.\)), (plain|macros) link: fastest batch ([\d.]+) µs, p10 ([\d.]+) µs, median ([\d.]+) µs \(medians by run: [\d.]+\); every answer recorded$/gm,
    ),
  ];
  expect(rows.map((m) => `${m[1]} ${m[2]}`)).toEqual(["this checkout macros", "baseline (.) plain"]);
  // µs per answer of a real call: more than nothing, far less than a millisecond
  for (const m of rows) for (const v of m.slice(3).map(Number)) expect(v > 0.05 && v < 1000).toBe(true);
  const wrong = await run(["run", "bench/index.ts", "visit", "--link", "rules"], cleanEnv());
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toContain("--link takes plain or macros, not rules");
});
