import { getTableColumns, getTableName, inArray, type Column } from "drizzle-orm";
import type { Database, Statement } from "bun:sqlite";
import * as schema from "../../db/schema";
import { links, type LinkRow } from "../../db/schema";
import type { Tables } from "../../db/async";
import type { Db } from "../../db/client";
import { writeTransaction, type Tx } from "../../db/transaction";
import type { Deps } from "../deps";

/**
 * What a click writer works with: the database, the clock and the address lookup, nothing else of the
 * service (the writer thread opens only these).
 */
export type ClickWriterDeps = Pick<Deps, "asyncDb" | "clock" | "geo">;
import { columnsOf, type ClickListener, type ListenerFailure, type ListenerRows, type StoredClick } from "./listeners";
import { lastSeqOf, packedLength, type PackedClicks } from "./packed";
import { INSERTED_COLUMNS, sqliteUsedValues, usedColumns } from "./columns";
import { linkIdsOf, workOut } from "./work-out";

/** The tables listeners write into, by name. */
const TABLES: Tables = schema;

/** The click writer's dependencies on SQLite: the service's, plus the synchronous handle of its own connection. */
export type SqliteWriterDeps = ClickWriterDeps & { db: Db };

/**
 * Clicks per INSERT statement (32 rows of 22 columns, far below SQLite's 32,766 bound parameters).
 * The values are spread into bun:sqlite's arguments, and past about 32 rows a longer statement costs
 * more than it saves: a batch of 10,000 clicks took 5.4 µs per click at 32 rows, 7.6 at 46, 6.7 at 64.
 */
export const INSERT_CHUNK = 32;
/** The INSERT of `n` rows naming the columns of mask `used` (columns.ts's usedColumns). */
function insertSql(n: number, used: number): string {
  const names = INSERTED_COLUMNS.filter((_, j) => used & (1 << j)).map((c) => c.name);
  const row = `(${names.map(() => "?").join(", ")})`;
  return `insert into clicks (${names.join(", ")}) values ${Array(n).fill(row).join(", ")}`;
}

type Statements = {
  visitor: Statement;
  upsertVisitor: Statement;
  count: Statement;
  uaId: Statement;
  addUa: Statement;
  /** the INSERT of `n` clicks naming the columns of mask `used` (one statement per size and columns, prepared on first use) */
  insert: (n: number, used: number) => Statement;
  /** user_agents ids known to be committed, by text */
  uaIds: Map<string, number>;
};
const UA_IDS_MAX = 20000;

/** Prepared statements of a writer, on its connection (drizzle's builder is too slow per row here). */
function prepareStatements(deps: SqliteWriterDeps): Statements {
  const db = deps.db.$client;
  const inserts = new Map<string, Statement>();
  return {
    visitor: db.prepare("select last_unique_at as at from click_visitors where link_id = ? and visitor_hash = ?"),
    upsertVisitor: db.prepare(
      "insert into click_visitors (link_id, visitor_hash, last_unique_at) values (?, ?, ?) on conflict (link_id, visitor_hash) do update set last_unique_at = excluded.last_unique_at",
    ),
    count: db.prepare(
      "update links set total_clicks = total_clicks + ?, unique_clicks = unique_clicks + ?, bot_clicks = bot_clicks + ? where id = ?",
    ),
    uaId: db.prepare("select id from user_agents where ua = ?"),
    addUa: db.prepare("insert into user_agents (ua) values (?) returning id"),
    insert(n, used) {
      const key = `${n}:${used}`;
      let s = inserts.get(key);
      if (!s) {
        s = db.prepare(insertSql(n, used));
        inserts.set(key, s);
      }
      return s;
    },
    uaIds: new Map(),
  };
}

/** The writer side of the click pipeline: stores packed batches on one connection. */
export interface ClickWriter {
  /**
   * Writes a packed batch in one transaction and returns how many clicks it held: the clicks, the
   * visitor rows that decide `is_unique`, the counters on the links, every listener, and the journal
   * mark (the batch's highest sequence number, in `click_journal`), so a batch and its mark commit
   * or roll back together. With `isolate`, each listener runs in a savepoint of its own and one that
   * throws is reported there instead of failing the batch.
   */
  write(batch: PackedClicks, isolate?: ListenerFailure): Promise<number>;
  /** The journal mark as committed: clicks at or below it are stored (or were dropped for good). */
  committedSeq(): Promise<number>;
}

/**
 * A click writer on `deps.db`'s connection, feeding every stored batch to `listeners` (the table of
 * the composition root) in its transaction. `journal` names the journal whose mark it keeps.
 * Prepared statements and the user-agent ids known to be committed live here, built once per
 * writer.
 */
export function createClickWriter(
  deps: SqliteWriterDeps,
  listeners: readonly ClickListener[],
  opts: { journal?: string } = {},
): ClickWriter {
  const journal = opts.journal ?? "local";
  const st = prepareStatements(deps);
  const geoOf = deps.geo;
  const mark = deps.db.$client.prepare(
    "insert into click_journal (journal, seq) values (?, ?) on conflict (journal) do update set seq = max(seq, excluded.seq)",
  );
  const readMark = deps.db.$client.prepare("select seq from click_journal where journal = ?");
  const writeRows = sqliteRowWriter(deps.db.$client);
  return {
    // the work is synchronous on bun:sqlite: the batch is written when this returns its promise
    async write(batch, isolate) {
      const learnt = new Map<string, number>();
      const seq = lastSeqOf(batch);
      writeTransaction(deps.db, (tx) => {
        const alive = linksOf(tx, batch.nums);
        const worked = workOut(batch, alive, geoOf, {
          lastUnique: (linkId, hash) => (st.visitor.get(linkId, hash) as { at: number } | null)?.at ?? -Infinity,
          unique: (linkId, hash, at) => void st.upsertVisitor.run(linkId, hash, at),
          uaId: (ua) => uaIdOf(st, ua, learnt),
        });
        insertClicks(st, worked.kept);
        for (const [id, c] of worked.counts) st.count.run(c.total, c.unique, c.bots, id);
        if (worked.kept.length && listeners.length) {
          const now = deps.clock.now();
          for (const listener of listeners) {
            if (!isolate) writeRows(listener(worked.kept, now));
            else {
              try {
                tx.transaction(() => writeRows(listener(worked.kept, now))); // a savepoint: a failure rolls back this listener's rows only
              } catch (e) {
                isolate(listener, e, worked.kept);
              }
            }
          }
        }
        if (seq > 0) mark.run(journal, seq);
      });
      // ids learnt are trusted once committed: not inside a caller's transaction (a savepoint it may roll back)
      if (!deps.db.$client.inTransaction) {
        if (st.uaIds.size + learnt.size > UA_IDS_MAX) st.uaIds.clear();
        for (const [ua, id] of learnt) st.uaIds.set(ua, id);
      }
      return packedLength(batch);
    },
    async committedSeq() {
      return (readMark.get(journal) as { seq: number } | null)?.seq ?? 0;
    },
  };
}

/** The batch's links that still exist (clicks of the others are dropped), by id; a query per 500 links. */
function linksOf(tx: Tx, nums: Float64Array): Map<number, LinkRow> {
  const all = linkIdsOf(nums);
  const found = new Map<number, LinkRow>();
  for (let i = 0; i < all.length; i += 500)
    for (const l of tx
      .select()
      .from(links)
      .where(inArray(links.id, all.slice(i, i + 500)))
      .all())
      found.set(l.id, l);
  return found;
}

/** The id of a user agent's row, added when new (`learnt` holds the ids this transaction added). */
function uaIdOf(st: Statements, ua: string, learnt: Map<string, number>): number {
  let id = st.uaIds.get(ua) ?? learnt.get(ua);
  if (id === undefined) {
    id = (st.uaId.get(ua) as { id: number } | null)?.id ?? (st.addUa.get(ua) as { id: number }).id;
    learnt.set(ua, id);
  }
  return id;
}

/**
 * Inserts the clicks INSERT_CHUNK rows per statement (a statement per row costs about half as much
 * again) and sets each row's id. Each statement names only the columns its rows set (usedColumns:
 * a column null in every row is left to the table's null), and takes its values as one array
 * (spread into arguments, 700 values cost a tenth of the writer's time). One multi-row INSERT inside
 * our write transaction numbers its rows consecutively (AUTOINCREMENT gives each row the largest id
 * so far + 1, and no other connection can write meanwhile), so the ids are the last one and the ones
 * before it.
 */
function insertClicks(st: Statements, rows: StoredClick[]) {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const end = Math.min(rows.length, i + INSERT_CHUNK);
    const n = end - i;
    const used = usedColumns(rows, i, end);
    const args: (string | number | null)[] = [];
    let k = 0;
    for (let r = i; r < end; r++) k = sqliteUsedValues(rows[r]!.click, used, args, k);
    const res = st.insert(n, used).run(args as never);
    if (res.changes !== n) throw new Error(`click insert wrote ${res.changes} of ${n} rows`);
    const first = Number(res.lastInsertRowid) - n + 1;
    for (let r = i; r < end; r++) rows[r]!.click.id = first + r - i;
  }
}

type RowStatement = { statement: Statement; columns: string[]; toDriver: ((v: unknown) => unknown)[] };

/**
 * Writes click listeners' rows on a synchronous SQLite connection, inside the transaction open on it
 * (the click writer's): one prepared statement per table, column list and conflict rule, made on first
 * use and kept, run once per row. Values go through the columns' own encoding (a Date as ms, a
 * boolean as 0/1, JSON as text).
 */
export function sqliteRowWriter(sqlite: Database): (writes: readonly ListenerRows[]) => void {
  const prepared = new Map<string, RowStatement>();
  const statementFor = (write: ListenerRows, columns: string[]): RowStatement => {
    const rule = write.onConflict;
    const key = `${write.table}\u0000${columns.join(",")}\u0000${rule ? JSON.stringify(rule) : ""}`;
    let made = prepared.get(key);
    if (!made) {
      const table = TABLES[write.table];
      const cols = getTableColumns(table) as Record<string, Column>;
      const name = (prop: string) => `"${cols[prop]!.name}"`;
      let sql = `insert into "${getTableName(table)}" (${columns.map(name).join(", ")}) values (${columns.map(() => "?").join(", ")})`;
      if (rule) {
        sql += ` on conflict (${rule.keys.map(name).join(", ")}) do `;
        sql += "add" in rule ? `update set ${rule.add.map((c) => `${name(c)} = ${name(c)} + excluded.${name(c)}`).join(", ")}` : "nothing";
      }
      const plain = new Set(["SQLiteInteger", "SQLiteText"]);
      made = {
        statement: sqlite.prepare(sql),
        columns,
        toDriver: columns.map((c) => {
          const col = cols[c]!;
          return plain.has(col.columnType)
            ? (v: unknown) => v
            : (v: unknown) => (v === null || v === undefined ? null : col.mapToDriverValue(v));
        }),
      };
      prepared.set(key, made);
    }
    return made;
  };
  return (writes) => {
    for (const write of writes) {
      if (!write.rows.length) continue;
      const { statement, columns, toDriver } = statementFor(write, columnsOf(write));
      const args: unknown[] = new Array(columns.length);
      for (const row of write.rows as readonly Record<string, unknown>[]) {
        for (let i = 0; i < columns.length; i++) args[i] = toDriver[i]!(row[columns[i]!]);
        statement.run(...(args as never[]));
      }
    }
  };
}
