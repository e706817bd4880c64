/**
 * The backup and restore of docs/cluster.md, run once as an operator would: `pg_dump` of a cluster's
 * database in use (as the service's own role, no superuser), `pg_restore` into a fresh database, and
 * a node started on the copy serves the links, counts and sign-ins it had, and stores new clicks.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, ROOT, spawnService } from "../helpers/process";
import { postgresForFile } from "../helpers/postgres";
import { eventually } from "../helpers/eventually";

setDefaultTimeout(120_000);
const server = postgresForFile();
const tmp = () => server.tmp("linkbot-restore-");

/** pg_dump and pg_restore of the newest installed PostgreSQL (the server's own version). */
function clientBin(name: string): string {
  const root = "/usr/lib/postgresql";
  const major = Math.max(
    ...readdirSync(root)
      .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, "bin", name)))
      .map(Number),
  );
  return join(root, String(major), "bin", name);
}

async function exec(cmd: string[]) {
  const p = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd[0]} exited with ${code}: ${err}${out}`);
  return out;
}

async function startNode(url: string, name: string, dataDir: string) {
  const node = spawnService(
    [join(ROOT, "main.ts")],
    cleanEnv({ PORT: "0", HOST: "127.0.0.1", DATABASE_URL: url, DATA_DIR: dataDir, NODE_NAME: name, DRAIN_SECONDS: "0" }),
  );
  const port = Number((await node.waitForOutput(/listening on [^:]+:(\d+)/, 60_000))[1]);
  return Object.assign(node, { base: `http://127.0.0.1:${port}` });
}

const visit = async (base: string, code: string, n: number) => {
  for (let i = 0; i < n; i++)
    expect(
      (await fetch(`${base}/${code}`, { redirect: "manual", headers: { "user-agent": `Mozilla/5.0 r${i}` } })).headers.get("location"),
    ).toBe(`https://kept.example/${code}`);
};

test("pg_dump of a database in use, restored into a fresh one: a node started on it serves what was there", async () => {
  const source = await server.pg.createDatabase();
  const sourceDb = new URL(source).pathname.slice(1);
  const dump = join(tmp(), "linkbot.dump");
  // the node's own DATA_DIR (its click journal, which holds its NODE_NAME) outlives the database
  const dataDir = tmp();
  const node = await startNode(source, "edge-1", dataDir);
  try {
    await server.pg.admin(
      `insert into users (username, created_at) values ('keeper', now());
       insert into links (user_id, code, url, created_at, updated_at) select id, c, 'https://kept.example/' || c, now(), now() from users, unnest(array['kept1', 'kept2']) as c`,
      sourceDb,
    );
    await visit(node.base, "kept1", 12);
    await visit(node.base, "kept2", 3);
    await eventually(async () => (await server.pg.admin(`select count(*) from clicks`, sourceDb)).trim() === "15", "the clicks written");
    // the backup, while the node runs: one consistent snapshot, as the service's own role
    await exec([clientBin("pg_dump"), "--format=custom", "--no-owner", `--file=${dump}`, `--dbname=${source}`]);
  } finally {
    node.proc.kill("SIGTERM");
    expect(await node.exit()).toBe(0);
  }

  // the restore: a fresh database owned by the same ordinary role
  const target = await server.pg.createDatabase();
  const targetDb = new URL(target).pathname.slice(1);
  await exec([clientBin("pg_restore"), "--no-owner", "--exit-on-error", `--dbname=${target}`, dump]);
  // the same node comes back on the restored database: the name the dump shows held is its own
  const restored = await startNode(target, "edge-1", dataDir);
  try {
    expect(restored.out).not.toContain("migration "); // every migration came back with the data
    expect((await fetch(`${restored.base}/readyz`)).status).toBe(200);
    expect((await server.pg.admin(`select code || '=' || total_clicks from links order by code`, targetDb)).trim().split("\n")).toEqual([
      "kept1=12",
      "kept2=3",
    ]);
    await visit(restored.base, "kept1", 5);
    // new clicks get new ids after the restored ones (the identity sequences came back too)
    await eventually(
      async () => (await server.pg.admin(`select count(*) || ' ' || count(distinct id) from clicks`, targetDb)).trim() === "20 20",
      "the new clicks written",
    );
    expect((await server.pg.admin(`select total_clicks from links where code = 'kept1'`, targetDb)).trim()).toBe("17");
  } finally {
    restored.proc.kill("SIGTERM");
    expect(await restored.exit()).toBe(0);
  }
  // the source was left as it was
  expect((await server.pg.admin(`select count(*) from clicks`, sourceDb)).trim()).toBe("15");
});
