/**
 * `bun run test:postgres`: the suite's app-level tests again, on PostgreSQL. Every test file that
 * builds the service (test/helpers/app.ts, directly or through a harness) runs with
 * TEST_DATABASE=postgres, which gives each test app a fresh PostgreSQL database (see
 * test/helpers/suite-database.ts), unless the file or a test helper it imports reaches for the
 * SQLite file itself (the synchronous handle, raw SQLite, seeding through it): those assert on a
 * file the PostgreSQL run leaves empty. Both lists are printed with their reasons; nothing is left
 * out silently. Files that already run one body on both databases (onBothDatabases and the cluster
 * tests) are in the first run and are not repeated.
 *
 * The script starts the run's one PostgreSQL server and migrates its template before the files run;
 * the files run in parallel worker processes (`bun test --parallel`), each app on its own database,
 * with 30 s per test before a test counts as hung (a machine this busy is slow, not stuck). With
 * `--workers 1` they run in one process as `bun test` runs them, sharing loaded modules (a worker
 * loads every file's modules afresh, which cost CI more than the second core gave back).
 *
 * Usage: bun run test:postgres [--list] [--workers N]   (N worker processes; one per core if not given)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { environmentWith } from "../config";
import { SUITE_VARIABLE, startSuiteDatabase } from "../test/helpers/suite-database";

const ROOT = resolve(import.meta.dir, "..");
const TEST = join(ROOT, "test");
const APP = join(TEST, "helpers/app.ts");
/** what a file does that only works on the SQLite file */
const SQLITE =
  /\bdeps\.db\b|\.db\.(select|insert|update|delete|transaction|run)\b|\.handle\.sqlite\b|\bsqlite\.|(\)|^\s*)\.(run|get|all)\(\)|\bcreateTestSink\(|\bcreateDeps\(/m;
/** files that assert what differs by design on PostgreSQL, with the reason */
const DIFFERS: Record<string, string> = {
  "test/core/clicks/click-id.test.ts":
    "reopens the same DATA_DIR as a second test app to replay the journal into it; on PostgreSQL each test app gets a database of its own, so the replayed click lands where the test does not look (replay on PostgreSQL is what the cluster tests' kill -9 runs check)",
  "test/core/delivery/worker.test.ts":
    "asserts the key order of a webhook body as queued; PostgreSQL's jsonb keeps an object's keys in its own order (same content, same signature over the bytes sent)",
};
/**
 * The mini-app's browser tests drive its pages in Chromium over the same API routes that the API's own
 * tests repeat here, each response checked against its declared schema; repeating the pages on
 * PostgreSQL would spend most of this run's time (two thirds of it) on Chromium drawing the same pages.
 */
const BROWSER = "test/miniapp/";
/** a test helper that says it works on either database (its SQLite-only parts are checked where they are called) */
const NEUTRAL = /@both-databases/;
/** files that already run their bodies on both databases */
const BOTH = /onBothDatabases|appEnginesForFile|startPostgres|pgNodesForFile/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** The test-tree files `file` imports, transitively (itself included). */
function closure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(/from "(\.[^"]+)"/g)) {
    const target = resolve(dirname(file), m[1]!);
    for (const candidate of [target, `${target}.ts`, join(target, "index.ts")])
      if (candidate.startsWith(TEST) && statSafe(candidate)) {
        closure(candidate, seen);
        break;
      }
  }
  return seen;
}

const statSafe = (p: string) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

const files = walk(TEST)
  .filter((f) => f.endsWith(".test.ts"))
  .sort();
const run: string[] = [];
const browser: string[] = [];
const left: { file: string; why: string }[] = [];
for (const file of files) {
  const deps = closure(file);
  if (!deps.has(APP)) continue; // does not build the service: nothing database-specific to repeat
  if (relative(ROOT, file).startsWith(BROWSER)) {
    browser.push(file);
    continue;
  }
  const differs = DIFFERS[relative(ROOT, file)];
  if (differs) {
    left.push({ file, why: differs });
    continue;
  }
  if (BOTH.test(readFileSync(file, "utf8"))) {
    left.push({ file, why: "already runs on both databases" });
    continue;
  }
  const sqlite = [...deps].filter((d) => {
    const text = readFileSync(d, "utf8");
    return d !== APP && (d === file || !NEUTRAL.test(text)) && SQLITE.test(text);
  });
  if (sqlite.length) left.push({ file, why: `reads or seeds the SQLite file (${sqlite.map((d) => relative(ROOT, d)).join(", ")})` });
  else run.push(file);
}

const workersAt = process.argv.indexOf("--workers");
const workers = workersAt < 0 ? undefined : (process.argv[workersAt + 1] ?? "");
if (workers !== undefined && !/^[1-9]\d*$/.test(workers)) {
  console.error(`--workers wants a whole number of processes, not "${workers}"`);
  process.exit(2);
}
console.log(`On PostgreSQL: ${run.length} test files that build the service and talk to it through its own code.`);
for (const { file, why } of left) console.log(`  not repeated: ${relative(ROOT, file)}: ${why}`);
console.log(
  `  not repeated: the mini-app's ${browser.length} browser test files (${BROWSER}): they draw the pages over the API routes repeated here`,
);
if (process.argv.includes("--list")) {
  for (const f of run) console.log(`  run: ${relative(ROOT, f)}`);
  process.exit(0);
}
// one server for the whole run, its template migrated once; the test files reach it through the variable
const { suite, server } = await startSuiteDatabase();
const parallel = workers === "1" ? [] : [workers ? `--parallel=${workers}` : "--parallel"];
const proc = Bun.spawn(["bun", "test", ...parallel, "--timeout=30000", ...run.map((f) => relative(ROOT, f))], {
  cwd: ROOT,
  env: environmentWith({ TEST_DATABASE: "postgres", [SUITE_VARIABLE]: JSON.stringify(suite) }),
  stdout: "inherit",
  stderr: "inherit",
});
// a signal to this script alone (not its process group) reaches the run too; the run's PostgreSQL
// server and directories go when it ends, however it ends (test/helpers/reaper.ts)
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => proc.kill(signal));
const code = await proc.exited;
await server.stop();
process.exit(code);
