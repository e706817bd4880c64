/**
 * The statements one click batch takes on PostgreSQL (writer-pg.ts runs them in its transaction):
 * set-wise reads before the batch is worked out, and one statement per table after it, the clicks
 * through `COPY … FROM STDIN` and the other rows as one JSON parameter (`json_to_recordset`).
 */
import { eq, getTableColumns, getTableName, inArray, sql, type Column } from "drizzle-orm";
import type { LinkRow } from "../../db/schema";
import { copyIn, rowsOf, type AsyncTx } from "../../db/async";
import { columnsOf, inKeyOrder, type ListenerRows, type StoredClick } from "./listeners";
import { packedLength, NUMS } from "./packed";
import { CLICK_COLUMNS, copyLine } from "./columns";
import { storedUaOf, visitorOfClick } from "./work-out";

/** Keys per statement where they are bound parameters (PostgreSQL allows 65,535). */
const CHUNK = 2000;
/** Rows per JSON statement: more than the largest batch the writer is given (a backlog is written 10,000 clicks at a time, write-queue.ts), so one per table. */
const JSON_ROWS = 50_000;

function chunks<T>(list: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** The journal's committed mark (0 before the first); one writer per journal (the node holds its name). */
export async function markOf(tx: AsyncTx, journal: string): Promise<number> {
  const { clickJournal } = tx.tables;
  const [row] = await tx.select({ seq: clickJournal.seq }).from(clickJournal).where(eq(clickJournal.journal, journal)).limit(1);
  return Number(row?.seq ?? 0);
}

/** The batch's links that still exist, by id (clicks of the others are dropped). */
export async function linksOf(tx: AsyncTx, ids: number[]): Promise<Map<number, LinkRow>> {
  const { links } = tx.tables;
  const found = new Map<number, LinkRow>();
  for (const part of chunks(ids)) for (const l of await tx.select().from(links).where(inArray(links.id, part))) found.set(l.id, l);
  return found;
}

/** The user agents of the batch not yet known, and its visitors by link (what the work-out will ask). */
export function wantedBy(
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
export async function userAgentIds(tx: AsyncTx, agents: string[], learnt: Map<string, number>): Promise<void> {
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
export async function lastUniques(tx: AsyncTx, visitors: Map<number, Set<string>>): Promise<Map<number, Map<string, number>>> {
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
export async function addToCounters(tx: AsyncTx, counts: Map<number, { total: number; unique: number; bots: number }>): Promise<void> {
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
export async function insertClicks(tx: AsyncTx, kept: StoredClick[]): Promise<void> {
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
export async function upsertVisitors(tx: AsyncTx, uniques: Map<number, Map<string, number>>): Promise<void> {
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
