/**
 * A node holds its NODE_NAME: a second `bun main.ts` with a name in use exits with one line and
 * touches nothing, on one machine (the lock on the journal directory) and in cluster mode from
 * another machine (the lock in PostgreSQL; here a second DATA_DIR stands for the other machine's
 * disk). The first node's journal files are as they were, it keeps serving, and every click it
 * answered is stored once.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, ROOT, spawnService } from "../helpers/process";
import { tempDir } from "../helpers/reaper";
import { startPostgres, type PgServer } from "../helpers/postgres";
import { createDb } from "../../db/client";
import { links, users } from "../../db/schema";

setDefaultTimeout(120_000);
let pg: PgServer;
const dirs: string[] = [];
const tmp = (p: string) => {
  const d = tempDir(p);
  dirs.push(d);
  return d;
};
beforeAll(async () => void (pg = await startPostgres()));
afterAll(async () => {
  await pg?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every file under `dir` with its size and hash: what "untouched" means (the spare segment the first node fills in the background aside). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name !== "next-segment.tmp") out[p] = `${statSync(p).size} ${createHash("sha256").update(readFileSync(p)).digest("hex")}`;
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

async function startNode(env: Record<string, string>) {
  const svc = spawnService([join(ROOT, "main.ts")], cleanEnv({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env }));
  const port = Number((await svc.waitForOutput(/listening on [^:]+:(\d+)/, 60_000))[1]);
  return Object.assign(svc, { base: `http://127.0.0.1:${port}` });
}

const visit = async (base: string, code: string, n: number) => {
  for (let i = 0; i < n; i++)
    expect((await fetch(`${base}/${code}`, { redirect: "manual", headers: { "user-agent": `Mozilla/5.0 v${i}` } })).status).toBe(302);
};

/** Starts a second process with `env`; expects it to refuse at once with one line naming the reason. */
async function refused(env: Record<string, string>, reason: RegExp) {
  const second = spawnService([join(ROOT, "main.ts")], cleanEnv({ PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env }));
  expect(await second.exit()).toBe(1);
  const said = second.err.trim().split("\n");
  expect(said).toHaveLength(1);
  expect(said[0]).toMatch(reason);
  expect(second.out).not.toMatch(/click journal:|listening/);
}

test("one machine, SQLite: a second process with the name in use refuses; the first node's journal and clicks are untouched", async () => {
  const dataDir = tmp("linkbot-name-");
  const setup = createDb(join(dataDir, "app.db"));
  const user = setup.db.insert(users).values({ username: "u", createdAt: new Date() }).returning().get();
  setup.db
    .insert(links)
    .values({ userId: user.id, code: "named1", url: "https://ok.example/", createdAt: new Date(), updatedAt: new Date() })
    .run();
  setup.close();

  const first = await startNode({ DATA_DIR: dataDir, NODE_NAME: "solo" });
  try {
    await visit(first.base, "named1", 20);
    const journal = join(dataDir, "click-journal");
    const before = snapshot(journal);
    expect(Object.keys(before).some((p) => p.endsWith(".journal"))).toBe(true);
    await refused(
      { DATA_DIR: dataDir, NODE_NAME: "solo" },
      new RegExp(
        `^NODE_NAME "solo" is in use: another process holds its click journal at ${journal}; stop it, or give this node another NODE_NAME$`,
      ),
    );
    expect(snapshot(journal)).toEqual(before);
    await visit(first.base, "named1", 5); // the first node still serves
  } finally {
    first.proc.kill("SIGTERM");
    expect(await first.exit()).toBe(0);
  }
  const check = createDb(join(dataDir, "app.db"));
  expect(check.db.select().from(links).get()).toMatchObject({ totalClicks: 25 });
  check.close();
});

test("cluster mode: a node elsewhere with a name in use refuses (the lock is in PostgreSQL); the first node's journal and clicks are untouched", async () => {
  const url = await pg.createDatabase();
  const [dirA, dirB] = [tmp("linkbot-name-a-"), tmp("linkbot-name-b-")];
  const first = await startNode({ DATABASE_URL: url, DATA_DIR: dirA, NODE_NAME: "edge-1" });
  const db = new URL(url).pathname.slice(1);
  try {
    await pg.admin(
      `insert into users (username, created_at) values ('u', now()); insert into links (user_id, code, url, created_at, updated_at) select id, 'named2', 'https://ok.example/', now(), now() from users`,
      db,
    );
    await visit(first.base, "named2", 20);
    const journal = join(dirA, "click-journal", "edge-1");
    const before = snapshot(journal);
    // another machine (its own disk) with the same name
    await refused(
      { DATABASE_URL: url, DATA_DIR: dirB, NODE_NAME: "edge-1" },
      /^NODE_NAME "edge-1" is in use: another node holds it in the database; stop that node, or give this one another NODE_NAME$/,
    );
    expect(snapshot(journal)).toEqual(before);
    // the same machine: its journal directory says so first
    await refused(
      { DATABASE_URL: url, DATA_DIR: dirA, NODE_NAME: "edge-1" },
      /^NODE_NAME "edge-1" is in use: another process holds its click journal at /,
    );
    expect(snapshot(journal)).toEqual(before);
    await visit(first.base, "named2", 5);
  } finally {
    first.proc.kill("SIGTERM");
    expect(await first.exit()).toBe(0);
  }
  expect((await pg.admin(`select count(*) || ' ' || (select total_clicks from links) from clicks`, db)).trim()).toBe("25 25");
  // once the first node has stopped, the name is free again
  const again = await startNode({ DATABASE_URL: url, DATA_DIR: dirB, NODE_NAME: "edge-1" });
  again.proc.kill("SIGTERM");
  expect(await again.exit()).toBe(0);
});
