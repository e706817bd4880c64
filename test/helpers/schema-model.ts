/**
 * Reads the schema of a real database (SQLite or PostgreSQL) into one normalized model, so the two
 * can be compared: tables, columns (type, nullability, default), primary keys, indexes and foreign
 * keys. Column types are reduced to the PostgreSQL types of db/kit.ts.
 *
 * SQLite stores booleans, timestamps and numbers all as `integer` and JSON as `text`, so the database
 * alone cannot tell them apart: the SQLite side also reads the drizzle schema's mode of each column
 * (boolean, timestamp_ms, json) and checks that the database's declared type agrees with it.
 */
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { getTableName, is } from "drizzle-orm";
import { SQLiteTable as SQLiteTableClass } from "drizzle-orm/sqlite-core";

interface ColumnModel {
  type: string;
  notNull: boolean;
  default: string | null;
}
interface TableModel {
  columns: Record<string, ColumnModel>;
  primaryKey: string[];
  /** by index name: "unique (a, b)" or "(a, b)" */
  indexes: Record<string, string>;
  /** sorted "(cols) -> table(cols) on delete X on update Y" */
  foreignKeys: string[];
}
export type SchemaModel = Record<string, TableModel>;

const ACTION: Record<string, string> = { a: "no action", r: "restrict", c: "cascade", n: "set null", d: "set default" };

/** The PostgreSQL type each drizzle SQLite column mode stands for. */
function sqliteKind(declared: string, column: { columnType: string; mode?: string } | undefined): string {
  const affinity = declared.toLowerCase();
  const expected: Record<string, [string, string]> = {
    SQLiteInteger: ["integer", "bigint"],
    SQLiteBoolean: ["integer", "boolean"],
    SQLiteTimestamp: ["integer", column?.mode === "timestamp_ms" ? "timestamp(3) with time zone" : `timestamp mode ${column?.mode}`],
    SQLiteText: ["text", "text"],
    SQLiteTextJson: ["text", "jsonb"],
    SQLiteBlobBuffer: ["blob", "bytea"],
  };
  if (!column) return `${affinity} (not in the drizzle schema)`;
  const [storage, kind] = expected[column.columnType] ?? [affinity, `${column.columnType} (no PostgreSQL mapping)`];
  return storage === affinity ? kind : `${kind} declared ${affinity} in the database`;
}

function sqliteDefault(v: string | null): string | null {
  if (v === null) return null;
  return v.replace(/^'(.*)'$/, "'$1'");
}

/** The model of a migrated SQLite database; `schema` is the drizzle SQLite schema module. */
export function sqliteModel(db: Database, schema: Record<string, unknown>): SchemaModel {
  const drizzleTables = new Map<string, ReturnType<typeof getTableConfig>>();
  for (const v of Object.values(schema))
    if (is(v, SQLiteTableClass)) drizzleTables.set(getTableName(v as SQLiteTable), getTableConfig(v as SQLiteTable));
  const model: SchemaModel = {};
  const tables = db
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations' ORDER BY name",
    )
    .all();
  for (const { name } of tables) {
    const known = drizzleTables.get(name)?.columns;
    const cols = db
      .query<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }, []>(`PRAGMA table_info("${name}")`)
      .all();
    const columns: Record<string, ColumnModel> = {};
    for (const c of cols)
      columns[c.name] = {
        type: sqliteKind(c.type, known?.find((k) => k.name === c.name) as never),
        notNull: c.notnull === 1 || c.pk > 0,
        default: sqliteDefault(c.dflt_value),
      };
    const primaryKey = cols
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    const indexes: Record<string, string> = {};
    for (const ix of db.query<{ name: string; unique: number; origin: string }, []>(`PRAGMA index_list("${name}")`).all()) {
      if (ix.origin === "pk") continue;
      const on = db
        .query<{ name: string; seqno: number }, []>(`PRAGMA index_info("${ix.name}")`)
        .all()
        .sort((a, b) => a.seqno - b.seqno)
        .map((c) => c.name);
      indexes[ix.name] = `${ix.unique ? "unique " : ""}(${on.join(", ")})`;
    }
    const fkRows = db
      .query<{ id: number; seq: number; table: string; from: string; to: string; on_delete: string; on_update: string }, []>(
        `PRAGMA foreign_key_list("${name}")`,
      )
      .all();
    const foreignKeys = [...new Set(fkRows.map((r) => r.id))]
      .map((id) => {
        const parts = fkRows.filter((r) => r.id === id).sort((a, b) => a.seq - b.seq);
        const p = parts[0]!;
        return `(${parts.map((r) => r.from).join(", ")}) -> ${p.table}(${parts.map((r) => r.to).join(", ")}) on delete ${p.on_delete.toLowerCase()} on update ${p.on_update.toLowerCase()}`;
      })
      .sort();
    model[name] = { columns, primaryKey, indexes, foreignKeys };
  }
  return model;
}

function pgDefault(v: string | null): string | null {
  if (v === null) return null;
  return v.replace(/::[a-z ]+$/, "");
}

/** The model of the `public` schema of a PostgreSQL database, leaving out `skip` tables. */
export async function pgModel(sql: SQL, skip: readonly string[] = []): Promise<SchemaModel> {
  const model: SchemaModel = {};
  const tables: { name: string }[] = await sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`;
  for (const { name } of tables) {
    if (skip.includes(name)) continue;
    const cols: { name: string; type: string; not_null: boolean; dflt: string | null }[] = await sql`
      SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS dflt
      FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = ${`public.${name}`}::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`;
    const columns: Record<string, ColumnModel> = {};
    for (const c of cols) columns[c.name] = { type: c.type, notNull: c.not_null, default: pgDefault(c.dflt) };
    const ixRows: { name: string; is_unique: boolean; is_primary: boolean; cols: string[] }[] = await sql`
      SELECT ic.relname AS name, i.indisunique AS is_unique, i.indisprimary AS is_primary,
        array(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY k(attnum, n) JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS cols
      FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid WHERE i.indrelid = ${`public.${name}`}::regclass`;
    const indexes: Record<string, string> = {};
    let primaryKey: string[] = [];
    for (const ix of ixRows) {
      if (ix.is_primary) primaryKey = ix.cols;
      else indexes[ix.name] = `${ix.is_unique ? "unique " : ""}(${ix.cols.join(", ")})`;
    }
    const fkRows: { cols: string[]; ref: string; ref_cols: string[]; del: string; upd: string }[] = await sql`
      SELECT array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(attnum, n) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS cols,
        c.confrelid::regclass::text AS ref,
        array(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(attnum, n) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.n)::text[] AS ref_cols,
        c.confdeltype AS del, c.confupdtype AS upd
      FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid = ${`public.${name}`}::regclass`;
    const foreignKeys = fkRows
      .map((f) => `(${f.cols.join(", ")}) -> ${f.ref}(${f.ref_cols.join(", ")}) on delete ${ACTION[f.del]} on update ${ACTION[f.upd]}`)
      .sort();
    model[name] = { columns, primaryKey, indexes, foreignKeys };
  }
  return model;
}
