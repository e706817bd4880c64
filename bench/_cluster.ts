/**
 * The cluster run of `bun run bench redirect --cluster`: a real PostgreSQL (started as the tests
 * start it), one link, and then, round after round, the same load against one `bun main.ts` node on
 * PostgreSQL and against three such nodes behind HAProxy with the committed configuration. Every
 * completed redirect must end up as one stored click. On a 2-core machine three nodes, HAProxy,
 * PostgreSQL and the load generator share two CPUs: the figures show correctness and overhead, not
 * scale.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Load, LoadResult } from "./_load";
import { startPostgres } from "../test/helpers/postgres";
import { asyncPg, createPgDb } from "../db/postgres";
import * as schemaPg from "../db/schema-pg";
import { startCommand } from "../scripts/start-command";

const ROOT = resolve(import.meta.dir, "..");

async function freePort(): Promise<number> {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

async function until(ok: () => Promise<boolean>, what: string, ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok().catch(() => false)) return;
    await Bun.sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function clusterRun(opts: { load: Load; connections: number; duration: number; rounds: number; ua: string }): Promise<{
  one: LoadResult[];
  three: LoadResult[];
  problems: string[];
  stored: number;
  completed: number;
  drains: { one: number[]; three: number[] };
}> {
  if (!Bun.which("haproxy")) throw new Error("--cluster needs haproxy on the PATH (apt-get install haproxy)");
  const pg = await startPostgres();
  const dir = mkdtempSync(join(tmpdir(), "linkbot-bench-cluster-"));
  const procs: { kill(sig?: string | number): void; exited: Promise<number> }[] = [];
  try {
    const handle = await createPgDb(pg.url, { max: 2 });
    const [user] = await asyncPg(handle).insert(schemaPg.users).values({ username: "bench" }).returning();
    const now = new Date();
    await asyncPg(handle).insert(schemaPg.links).values({
      userId: user!.id,
      code: "benchcl1",
      url: "https://example.com/landing",
      utmSource: "bench",
      createdAt: now,
      updatedAt: now,
    });
    const ports = [await freePort(), await freePort(), await freePort()];
    for (const [i, port] of ports.entries()) {
      const env = {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "/tmp",
        DATABASE_URL: pg.url,
        NODE_NAME: `n${i + 1}`,
        DATA_DIR: dir,
        PORT: String(port),
        HOST: "127.0.0.1",
        TRUST_PROXY: "true",
        SHORT_URL: "http://127.0.0.1",
        JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123",
        LOG_LEVEL: "error",
        // the variables `bun start` sets for the service (the allocator's setting)
        ...startCommand(ROOT).env,
      };
      procs.push(Bun.spawn(["bun", "--max-http-header-size=65536", join(ROOT, "main.ts")], { env, stdout: "inherit", stderr: "inherit" }));
      // the first node migrates; the next start after it is up
      await until(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200, `node n${i + 1}`, 60_000);
    }
    const front = await freePort();
    let config = readFileSync(join(ROOT, "deploy/haproxy.cfg"), "utf8").replace(/^(\s*bind) :80$/m, `$1 127.0.0.1:${front}`);
    ports.forEach((port, i) => (config = config.replace(new RegExp(`(server node${i + 1}) \\S+`), `$1 127.0.0.1:${port}`)));
    writeFileSync(join(dir, "haproxy.cfg"), config);
    procs.push(Bun.spawn(["haproxy", "-db", "-f", join(dir, "haproxy.cfg")], { stdout: "ignore", stderr: "ignore" }));
    const oneUrl = `http://127.0.0.1:${ports[0]}/benchcl1`;
    const threeUrl = `http://127.0.0.1:${front}/benchcl1`;
    await until(
      async () => (await fetch(threeUrl, { redirect: "manual", headers: { "user-agent": opts.ua } })).status === 302,
      "HAProxy",
      15_000,
    );
    // warm-up: every node has the link cached
    await opts.load(oneUrl, opts.connections, 2);
    await opts.load(threeUrl, opts.connections, 2);
    const count = async () => Number((await handle.sql`select count(*)::bigint as n from clicks`)[0].n);
    /** the stored clicks once the writers have caught up: the count has not moved for 5 s */
    const settled = async () => {
      let last = -1;
      let still = 0;
      for (;;) {
        await Bun.sleep(500);
        const n = await count();
        still = n === last ? still + 500 : 0;
        if (still >= 5000) return n;
        last = n;
      }
    };
    const before = await settled();
    const one: LoadResult[] = [];
    const three: LoadResult[] = [];
    // after each round, the seconds until its clicks were all stored: about 0 when the writers kept up
    const drains = { one: [] as number[], three: [] as number[] };
    let stored = 0;
    for (let r = 0; r < opts.rounds; r++) {
      const order = r % 2 ? [three, one] : [one, three];
      for (const out of order) {
        out.push(await opts.load(out === one ? oneUrl : threeUrl, opts.connections, opts.duration));
        const ended = Date.now();
        stored = (await settled()) - before;
        drains[out === one ? "one" : "three"].push(Math.max(0, (Date.now() - ended - 5000) / 1000));
      }
    }
    const completed = [...one, ...three].reduce((n, x) => n + x.redirects, 0);
    const atMost = completed + opts.connections * opts.rounds * 2 + [...one, ...three].reduce((n, x) => n + x.errors, 0);
    const problems = [
      stored < completed && `MISSING ${completed - stored} clicks`,
      stored > atMost && `${stored - atMost} more clicks than requests`,
    ].filter(Boolean) as string[];
    await handle.close();
    return { one, three, problems, stored, completed, drains };
  } finally {
    for (const p of procs) p.kill("SIGTERM");
    await Promise.all(procs.map((p) => p.exited));
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
