/**
 * A test process in miniature, for test/ops/cleanup.test.ts: starts a PostgreSQL server, a service
 * node and a temporary directory through the test helpers, prints where they are, then ends as the
 * argument says: `exit` (once the test has looked and wrote `go` in the data directory, cleaning
 * nothing itself), `throw` (an uncaught error, likewise after `go`) or `wait`
 * (until a signal ends it).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startPostgres } from "./postgres";
import { cleanEnv, ROOT, spawnService } from "./process";
import { tempDir } from "./reaper";

const pg = await startPostgres();
const dataDir = tempDir("linkbot-cleanup-");
writeFileSync(join(dataDir, "marker"), "x");
const node = spawnService([join(ROOT, "main.ts")], cleanEnv({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1" }));
await node.waitForOutput(/listening on/, 60_000);
const pgDir = pg.adminCommand().socketDir;
const pgPid = Number(readFileSync(join(pgDir, "data", "postmaster.pid"), "utf8").split("\n")[0]);
console.log(JSON.stringify({ pgDir, pgPid, nodePid: node.proc.pid, dataDir }));
const how = process.argv[2];
// the test looks at what was started first, then says go (a file in the data directory)
if (how === "exit" || how === "throw") while (!existsSync(join(dataDir, "go"))) await Bun.sleep(20);
if (how === "exit") process.exit(0);
if (how === "throw") throw new Error("a failing run");
setInterval(() => {}, 60_000);
