/**
 * A NODE_NAME taken twice, for real: a node on PostgreSQL under a bounded load (a Referer per visit,
 * so every answered redirect is traced to its stored click), PostgreSQL restarted, and at once a
 * second process with the same name and a journal of its own (another machine's disk): it is
 * refused, since the running node's hold outlives its session for a while. Then the name is taken
 * from under the running node (the row a second start would write): the node stops writing at once,
 * says so loudly and its gauge says 0; once the other holder has gone, the real node starts again and
 * every click it answered is stored exactly once.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, ROOT, spawnService } from "../helpers/process";
import { tempDir } from "../helpers/reaper";
import { startPostgres, type PgServer } from "../helpers/postgres";
import { eventually } from "../helpers/eventually";
import { parsePrometheus, sampleOf } from "../helpers/prometheus";
import { expectEveryVisitStoredOnce, tracedVisits } from "../helpers/traced-visits";

setDefaultTimeout(180_000);
let pg: PgServer;
let dirs: string[] = [];
beforeAll(async () => {
  pg = await startPostgres();
  dirs = [tempDir("linkbot-fence-a-"), tempDir("linkbot-fence-b-")];
});
afterAll(async () => {
  await pg?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function spawnNode(dataDir: string) {
  return spawnService(
    [join(ROOT, "main.ts")],
    cleanEnv({ DATABASE_URL: pg.url, DATA_DIR: dataDir, NODE_NAME: "edge", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" }),
  );
}
async function startNode(dataDir: string) {
  const svc = spawnNode(dataDir);
  const port = Number((await svc.waitForOutput(/listening on [^:]+:(\d+)/, 60_000))[1]);
  return Object.assign(svc, { name: "edge", url: `http://127.0.0.1:${port}` });
}
const heldGauge = async (url: string) => sampleOf(parsePrometheus(await (await fetch(`${url}/metrics`)).text()), "linkbot_node_name_held");

test("an impostor right after a database restart is refused; a node whose name is taken stops writing; nothing is lost", async () => {
  const db = new URL(pg.url).pathname.slice(1);
  let real = await startNode(dirs[0]!);
  await pg.admin(
    `insert into users (username, created_at) values ('u', now()); insert into links (user_id, code, url, created_at, updated_at) select id, 'fenced', 'https://ok.example/', now(), now() from users`,
    db,
  );
  const linkId = Number(await pg.admin("select id from links where code = 'fenced'", db));
  expect(await heldGauge(real.url)).toBe(1);
  const first = tracedVisits([real], "fenced", 2, 20);
  await eventually(() => first.answered.length >= 100, "visits before the restart", 20_000);

  // a fast restart ends every session (the advisory lock with them), and the impostor starts at once
  await pg.halt();
  await pg.resume();
  const impostor = spawnNode(dirs[1]!);
  expect(await impostor.exit()).toBe(1);
  expect(impostor.err.trim()).toMatch(
    /^NODE_NAME "edge" is in use: (another node holds it in the database|another node held it \d+ s ago \(its hold lasts 30 s after its last heartbeat\)); stop that node, or give this one another NODE_NAME$/,
  );
  expect(impostor.out).not.toMatch(/click journal:|listening/);
  const answeredBefore = first.answered.length;
  await eventually(() => first.answered.length >= answeredBefore + 100, "visits after the restart", 20_000);
  await eventually(async () => (await heldGauge(real.url)) === 1, "the real node to hold its name", 20_000);

  // the name taken from under it, as a second start's row would: a later generation, another journal
  await pg.admin(
    "update click_journal set generation = generation + 1, holder = 'another-journal', held_at = now() where journal = 'node:edge'",
    db,
  );
  await real.waitForOutput(/WAS TAKEN BY ANOTHER NODE/, 20_000);
  expect(await heldGauge(real.url)).toBe(0);
  const storedAtFence = await pg.admin(
    `select count(*) || ' ' || (select seq from click_journal where journal = 'node:edge') from clicks`,
    db,
  );
  const fencedAt = first.answered.length;
  await eventually(() => first.answered.length >= fencedAt + 200, "visits while fenced (answered, journaled)", 20_000);
  await first.stop();
  real.proc.kill("SIGTERM");
  await real.exit();
  // nothing was committed or marked after the fence: the answered clicks wait in its journal
  expect(await pg.admin(`select count(*) || ' ' || (select seq from click_journal where journal = 'node:edge') from clicks`, db)).toBe(
    storedAtFence,
  );
  const line = (real.out + real.err).split("\n").find((l) => l.includes("WAS TAKEN BY ANOTHER NODE"))!;
  expect(JSON.parse(line)).toMatchObject({ level: "error" });

  // the other holder stops (cleanly: its hold ends); the real node starts again and writes what waited
  await pg.admin("update click_journal set held_at = null where journal = 'node:edge'", db);
  real = await startNode(dirs[0]!);
  expect(await heldGauge(real.url)).toBe(1);
  const figures = await expectEveryVisitStoredOnce(pg, linkId, first.answered);
  expect([...first.other]).toEqual([]);
  real.proc.kill("SIGTERM");
  expect(await real.exit()).toBe(0);
  console.log(`name fencing: ${figures.answered} answered, ${figures.stored} stored, ${figures.lost} lost, ${figures.doubled} doubled`);
});
