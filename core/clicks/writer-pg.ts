/**
 * The click writer in cluster mode: the same batches, the same work-out (writer.ts `workOut`) and the
 * same listeners as on SQLite, in one PostgreSQL transaction per batch. What the SQLite writer asks
 * its connection click by click (a visitor's last unique click, a user agent's id) is read here in a
 * few set-wise queries before the batch is worked out, and what it writes row by row goes in one
 * statement per table and batch.
 *
 * The clicks go in with `COPY … FROM STDIN` on the transaction's connection (`copyIn`); the other
 * statements take their rows as one JSON parameter (`json_to_recordset`) rather than as bound
 * values: building and binding fifteen values per click through drizzle's builder took more than half
 * of a batch's insert time (docs/cluster.md).
 */
import { eq, getTableColumns, getTableName, inArray, sql, type Column } from "drizzle-orm";
import type { LinkRow } from "../../db/schema";
import { copyIn, rowsOf, transaction, type AsyncDb, type AsyncTx } from "../../db/async";
import { columnsOf, inKeyOrder, type ClickListener, type ListenerRows, type StoredClick } from "./listeners";
import { afterSeq, lastSeqOf, packedLength, NUMS, type PackedClicks } from "./packed";
import { CLICK_COLUMNS, copyLine } from "./columns";
import type { ClickWriter, ClickWriterDeps } from "./writer";
import { NodeNameFencedError } from "./write-failures";
import { linkIdsOf, storedUaOf, visitorOfClick, workOut } from "./work-out";

/** Keys per statement where they are bound parameters (PostgreSQL allows 65,535). */
const CHUNK = 2000;
/** Rows per JSON statement: more than the largest batch the writer is given (a backlog is written 10,000 clicks at a time, write-queue.ts), so one per table. */
const JSON_ROWS = 50_000;
const UA_IDS_MAX = 20000;

function chunks<T>(list: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * A click writer on PostgreSQL (`deps.asyncDb`), writing the rows `listeners` return for every
 * stored batch in its transaction (writeRowsPg), and keeping the mark of journal `journal`.
 *
 * Several nodes write at once: rows that two batches may both touch (links' counters, visitors,
 * roll-ups) are written in key order, so their row locks are taken in one order and two writers
 * wait for each other instead of deadlocking; a deadlock or serialization failure that happens
 * anyway is a transient error, and the write queue retries the batch whole. Two nodes that each
 * see a visitor's first click on a link within the same moment may both count it unique.
 */
export function createPgClickWriter(
  deps: ClickWriterDeps,
  listeners: readonly ClickListener[],
  opts: { journal?: string; holder?: string } = {},
): ClickWriter {
  const journal = opts.journal ?? "local";
  const db: AsyncDb = deps.asyncDb;
  const markAs = fencedMark(journal, opts.holder);
  /** user-agent ids known to be committed, by text */
  const uaIds = new Map<string, number>();
  return {
    async write(given, isolate) {
      const learnt = new Map<string, number>();
      const seq = lastSeqOf(given);
      let batch: PackedClicks = given;
      await transaction(db, async (tx) => {
        // exactly once: a batch may come again after a failure whose COMMIT went through all the same
        // (the connection lost while it was under way), or be read back from the journal twice
        if (seq > 0) batch = afterSeq(given, await markOf(tx, journal));
        const alive = await linksOf(tx, linkIdsOf(batch.nums));
        const { agents, visitors } = wantedBy(batch, alive, uaIds);
        await userAgentIds(tx, agents, learnt);
        const last = await lastUniques(tx, visitors);
        const uniques = new Map<number, Map<string, number>>();
        const worked = workOut(batch, alive, deps.geo, {
          lastUnique: (linkId, hash) => last.get(linkId)?.get(hash) ?? -Infinity,
          unique: (linkId, hash, at) => {
            let m = uniques.get(linkId);
            if (!m) uniques.set(linkId, (m = new Map()));
            m.set(hash, at);
          },
          uaId: (ua) => uaIds.get(ua) ?? learnt.get(ua)!,
        });
        await insertClicks(tx, worked.kept);
        await upsertVisitors(tx, uniques);
        await addToCounters(tx, worked.counts);
        if (worked.kept.length && listeners.length) {
          const now = deps.clock.now();
          for (const listener of listeners) {
            if (!isolate) await writeRowsPg(tx, listener(worked.kept, now));
            else {
              try {
                await transaction(tx, (savepoint) => writeRowsPg(savepoint, listener(worked.kept, now))); // a failure rolls back this listener's rows only
              } catch (e) {
                isolate(listener, e, worked.kept);
              }
            }
          }
        }
        if (seq > 0) await markAs(tx, seq);
      });
      if (uaIds.size + learnt.size > UA_IDS_MAX) uaIds.clear();
      for (const [ua, id] of learnt) uaIds.set(ua, id);
      return packedLength(batch);
    },
    async committedSeq() {
      const { clickJournal } = db.tables;
      const [row] = await db.select({ seq: clickJournal.seq }).from(clickJournal).where(eq(clickJournal.journal, journal)).limit(1);
      return Number(row?.seq ?? 0);
    },
  };
}

/**
 * How the writer moves its journal's mark, in the batch's transaction. With `holder` (the id of the
 * journal directory of a node that took its name, core/cluster/name-fence.ts) the mark moves only
 * while the name's row still has that holder and the generation it had at this writer's first
 * batch: a node whose name was taken by another start cannot commit (NodeNameFencedError rolls the
 * batch back, and the write queue keeps it). Without one (a row no start has taken, or a single
 * node) the row is made when missing.
 */
function fencedMark(journal: string, holder: string | undefined): (tx: AsyncTx, seq: number) => Promise<void> {
  let generation: number | null = null;
  return async (tx, seq) => {
    if (holder !== undefined && generation === null) {
      const [row] = await rowsOf<{ holder: string | null; generation: unknown }>(
        tx,
        sql`select holder, generation from click_journal where journal = ${journal}`,
      );
      if (row?.holder && row.holder !== holder) throw new NodeNameFencedError(journal);
      if (row?.holder) generation = Number(row.generation);
    }
    if (generation !== null) {
      const moved = await rowsOf(
        tx,
        sql`update click_journal set seq = greatest(seq, ${seq}) where journal = ${journal} and holder = ${holder} and generation = ${generation} returning seq`,
      );
      if (!moved.length) throw new NodeNameFencedError(journal);
      return;
    }
    const { clickJournal } = tx.tables;
    await tx
      .insert(clickJournal)
      .values({ journal, seq })
      .onConflictDoUpdate({ target: clickJournal.journal, set: { seq: sql`greatest(click_journal.seq, excluded.seq)` } });
  };
}

/** The journal's committed mark (0 before the first); one writer per journal (the node holds its name). */
async function markOf(tx: AsyncTx, journal: string): Promise<number> {
  const { clickJournal } = tx.tables;
  const [row] = await tx.select({ seq: clickJournal.seq }).from(clickJournal).where(eq(clickJournal.journal, journal)).limit(1);
  return Number(row?.seq ?? 0);
}

/** The batch's links that still exist, by id (clicks of the others are dropped). */
async function linksOf(tx: AsyncTx, ids: number[]): Promise<Map<number, LinkRow>> {
  const { links } = tx.tables;
  const found = new Map<number, LinkRow>();
  for (const part of chunks(ids)) for (const l of await tx.select().from(links).where(inArray(links.id, part))) found.set(l.id, l);
  return found;
}

/** The user agents of the batch not yet known, and its visitors by link (what the work-out will ask). */
function wantedBy(
  batch: { nums: Float64Array; refs: Uint32Array; strings: string[] },
  alive: Map<number, LinkRow>,
  known: Map<string, number>,
) {
  const agents = new Set<string>();
  const visitors = new Map<number, Set<string>>();
  const hashes = new Map<number, string>();
  const n = packedLength(batch);
  for (let i = 0; i < n; i++) {
    const linkId = batch.nums[i * NUMS]!;
    if (!alive.has(linkId)) continue;
    const ua = storedUaOf(batch, i);
    if (ua !== null && !known.has(ua)) agents.add(ua);
    const hash = visitorOfClick(batch, i, hashes);
    if (hash === null) continue;
    let set = visitors.get(linkId);
    if (!set) visitors.set(linkId, (set = new Set()));
    set.add(hash);
  }
  return { agents: [...agents].sort(), visitors };
}

/** Ids of the user agents (added when new: two nodes adding one at once both get its one row). */
async function userAgentIds(tx: AsyncTx, agents: string[], learnt: Map<string, number>): Promise<void> {
  const { userAgents } = tx.tables;
  for (const part of chunks(agents)) {
    await tx
      .insert(userAgents)
      .values(part.map((ua) => ({ ua })))
      .onConflictDoNothing();
    for (const row of await tx.select().from(userAgents).where(inArray(userAgents.ua, part))) learnt.set(row.ua, row.id);
  }
}

/** Each visitor's last unique click (ms) on each link, for the visitors of the batch (one statement per JSON_ROWS visitors). */
async function lastUniques(tx: AsyncTx, visitors: Map<number, Set<string>>): Promise<Map<number, Map<string, number>>> {
  const out = new Map<number, Map<string, number>>();
  const keys: { l: number; h: string }[] = [];
  for (const [linkId, hashes] of visitors) {
    out.set(linkId, new Map());
    for (const h of hashes) keys.push({ l: linkId, h });
  }
  for (const part of chunks(keys, JSON_ROWS))
    for (const row of await rowsOf<{ l: unknown; h: string; at: unknown }>(
      tx,
      sql`select v.link_id as l, v.visitor_hash as h, (extract(epoch from v.last_unique_at) * 1000)::bigint as at
        from json_to_recordset(${JSON.stringify(part)}::text::json) as r(l bigint, h text) join click_visitors v on v.link_id = r.l and v.visitor_hash = r.h`,
    ))
      out.get(Number(row.l))!.set(row.h, Number(row.at));
  return out;
}

/** The links' click counters, one statement; the rows are locked in id order first (see createPgClickWriter on deadlocks). */
async function addToCounters(tx: AsyncTx, counts: Map<number, { total: number; unique: number; bots: number }>): Promise<void> {
  if (!counts.size) return;
  const rows = [...counts].sort(([a], [b]) => a - b).map(([id, c]) => ({ id, t: c.total, u: c.unique, b: c.bots }));
  await rowsOf(
    tx,
    sql`with r as (select * from json_to_recordset(${JSON.stringify(rows)}::text::json) as r(id bigint, t bigint, u bigint, b bigint)),
    locked as (select l.id from links l join r on r.id = l.id order by l.id for no key update of l)
    update links set total_clicks = links.total_clicks + r.t, unique_clicks = links.unique_clicks + r.u, bot_clicks = links.bot_clicks + r.b
    from r join locked on locked.id = r.id where links.id = r.id`,
  );
}

/** The clicks id sequence as a regclass literal, looked up once per process. */
let clickIdSeq: string | null = null;
async function clickIdSequence(tx: AsyncTx): Promise<string> {
  if (clickIdSeq === null) {
    const [row] = await rowsOf<{ s: string }>(tx, sql`select pg_get_serial_sequence('clicks', 'id') as s`);
    clickIdSeq = `'${row!.s.replaceAll("'", "''")}'::regclass`;
  }
  return clickIdSeq;
}

const COPY_CLICKS = `copy clicks (${CLICK_COLUMNS.map((c) => c.name).join(", ")}) from stdin`;

/**
 * Inserts the clicks and sets each one's id: the ids are drawn from the table's sequence first, so
 * the rows can be sent with their ids. The sequence is named as a constant:
 * `nextval(pg_get_serial_sequence(…))` looked it up again for every id, which cost 65 of the 77 ms
 * that 10,000 ids took; and the ids come back as one text row instead of 10,000 rows.
 *
 * The rows go in with `COPY … FROM STDIN` (text format) on the transaction's connection: the server
 * reads them as they come, with no JSON to parse and no plan, so they commit with the batch's other
 * writes and its journal mark like the INSERT they replace (docs/analytics.md has the figures).
 */
async function insertClicks(tx: AsyncTx, kept: StoredClick[]): Promise<void> {
  if (!kept.length) return;
  const [row] = await rowsOf<{ ids: string }>(
    tx,
    sql`select string_agg(nextval(${sql.raw(await clickIdSequence(tx))})::text, ',') as ids from generate_series(1, ${kept.length}::int)`,
  );
  const ids = row!.ids.split(",");
  kept.forEach((r, j) => (r.click.id = Number(ids[j])));
  const lines: string[] = new Array(kept.length);
  for (let j = 0; j < kept.length; j++) lines[j] = copyLine(kept[j]!.click);
  await copyIn(tx, COPY_CLICKS, lines.join(""));
}

/** The visitors whose click was unique, in key order, one statement per JSON_ROWS. */
async function upsertVisitors(tx: AsyncTx, uniques: Map<number, Map<string, number>>): Promise<void> {
  const rows: { l: number; h: string; at: number }[] = [];
  for (const linkId of [...uniques.keys()].sort((a, b) => a - b))
    for (const [h, at] of [...uniques.get(linkId)!].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) rows.push({ l: linkId, h, at });
  for (const part of chunks(rows, JSON_ROWS))
    await rowsOf(
      tx,
      sql`insert into click_visitors (link_id, visitor_hash, last_unique_at)
      select l, h, timestamptz 'epoch' + at * interval '1 millisecond' from json_to_recordset(${JSON.stringify(part)}::text::json) as r(l bigint, h text, at bigint)
      on conflict (link_id, visitor_hash) do update set last_unique_at = excluded.last_unique_at`,
    );
}

/**
 * Writes click listeners' rows inside `tx`: one multi-row statement per table and JSON_ROWS rows,
 * the rows as one JSON parameter (`json_to_recordset`, typed by the table's own columns), in the
 * order of their conflict keys with rows of one key merged (listeners.ts `inKeyOrder`), so two nodes
 * writing the same roll-up rows lock them in one order.
 */
export async function writeRowsPg(tx: AsyncTx, writes: readonly ListenerRows[]): Promise<void> {
  for (const write of writes) {
    if (!write.rows.length) continue;
    const table = tx.tables[write.table];
    const cols = getTableColumns(table) as Record<string, Column>;
    const props = columnsOf(write);
    const name = (prop: string) => `"${cols[prop]!.name}"`;
    const target = sql.raw(props.map(name).join(", "));
    const picked = sql.raw(props.map((p) => `"${p}"`).join(", "));
    const types = sql.raw(props.map((p) => `"${p}" ${cols[p]!.getSQLType()}`).join(", "));
    const rule = write.onConflict;
    const tableName = getTableName(table);
    const onConflict = !rule
      ? ""
      : `on conflict (${rule.keys.map(name).join(", ")}) do ${
          "add" in rule
            ? `update set ${rule.add.map((c) => `${name(c)} = "${tableName}".${name(c)} + excluded.${name(c)}`).join(", ")}`
            : "nothing"
        }`;
    const rows = inKeyOrder(write);
    for (const part of chunks(rows, JSON_ROWS))
      await rowsOf(
        tx,
        sql`insert into ${sql.raw(`"${tableName}"`)} (${target}) select ${picked} from json_to_recordset(${JSON.stringify(part)}::text::json) as r(${types}) ${sql.raw(onConflict)}`,
      );
  }
}
