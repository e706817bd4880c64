/**
 * The clicks table's columns as both click writers send them, derived from the table's one
 * declaration (db/tables/links.ts): a new click column is a line there and a value in the work-out
 * (work-out.ts builds the ClickRow); neither writer lists columns by position.
 */
import { getTableColumns, type Column } from "drizzle-orm";
import { clicks, type ClickRow } from "../../db/schema";

/** How a column's value travels: a time, a flag, a number or text (drizzle's data type of the column). */
type Kind = "date" | "boolean" | "number" | "string";

export interface ClickColumn {
  /** the ClickRow property */
  key: keyof ClickRow;
  /** the SQL column */
  name: string;
  kind: Kind;
  /** nullable with no default: a row that leaves it out gets null, as when it binds null */
  nullable: boolean;
}

/** Every column of clicks, in declaration order (`id` first). */
export const CLICK_COLUMNS: readonly ClickColumn[] = Object.entries(getTableColumns(clicks)).map(([key, column]) => {
  const c = column as Column;
  if (c.dataType !== "date" && c.dataType !== "boolean" && c.dataType !== "number" && c.dataType !== "string")
    throw new Error(`clicks.${c.name}: no click writer encoding for a ${c.dataType} column`);
  return { key: key as keyof ClickRow, name: c.name, kind: c.dataType, nullable: !c.notNull && !c.hasDefault };
});

/** The columns an INSERT names: all but `id`, which SQLite numbers itself. */
export const INSERTED_COLUMNS = CLICK_COLUMNS.filter((c) => c.key !== "id");

type Value = string | number | null;

/** A column's value as bun:sqlite binds it: times in ms since the epoch (how the table stores them), flags 1/0. */
const sqliteOf: Record<Kind, (v: unknown) => Value> = {
  date: (v) => (v === null ? null : (v as Date).getTime()),
  boolean: (v) => (v ? 1 : 0),
  number: (v) => v as number | null,
  string: (v) => v as string | null,
};

/** A value in COPY's text format: `\N` for null, and backslash, tab, newline and carriage return escaped. */
function copyText(v: string | null): string {
  if (v === null) return "\\N";
  return /[\\\t\n\r]/.test(v)
    ? v.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"))
    : v;
}

/** A column's value in PostgreSQL's COPY text format. */
const copyOf: Record<Kind, (v: unknown) => string> = {
  date: (v) => (v === null ? "\\N" : (v as Date).toISOString()),
  boolean: (v) => (v ? "t" : "f"),
  number: (v) => (v === null ? "\\N" : String(v)),
  string: (v) => copyText(v as string | null),
};

const insertedKeys = INSERTED_COLUMNS.map((c) => c.key);
const insertedEncoders = INSERTED_COLUMNS.map((c) => sqliteOf[c.kind]);
const copyKeys = CLICK_COLUMNS.map((c) => c.key);
const copyEncoders = CLICK_COLUMNS.map((c) => copyOf[c.kind]);

/** Writes `row`'s INSERTED_COLUMNS values into `out` from `at`; returns where the next row starts. */
export function sqliteValues(row: ClickRow, out: Value[], at: number): number {
  for (let j = 0; j < insertedKeys.length; j++) out[at++] = insertedEncoders[j]!(row[insertedKeys[j]!]);
  return at;
}

/** Every INSERTED_COLUMNS bit of a mask (bit j: INSERTED_COLUMNS[j]; 22 columns, well inside 32 bits). */
const ALL_INSERTED = 2 ** INSERTED_COLUMNS.length - 1;
const nullableBits = INSERTED_COLUMNS.reduce((m, c, j) => (c.nullable ? m | (1 << j) : m), 0);

/**
 * The INSERTED_COLUMNS rows `from`…`to` of `rows` need, as a mask: all but the nullable columns
 * without a default that are null in every one of them (an INSERT that leaves those out stores the
 * same null, and binds fewer values: most clicks have no sub parameters, rule or variant).
 */
export function usedColumns(rows: readonly { click: ClickRow }[], from: number, to: number): number {
  let used = ALL_INSERTED & ~nullableBits;
  for (let j = 0; j < insertedKeys.length; j++) {
    if (used & (1 << j)) continue;
    const key = insertedKeys[j]!;
    for (let i = from; i < to; i++)
      if (rows[i]!.click[key] != null) {
        used |= 1 << j;
        break;
      }
  }
  return used;
}

/** Like sqliteValues, only the columns of mask `used` (usedColumns). */
export function sqliteUsedValues(row: ClickRow, used: number, out: Value[], at: number): number {
  if (used === ALL_INSERTED) return sqliteValues(row, out, at);
  for (let j = 0; j < insertedKeys.length; j++) if (used & (1 << j)) out[at++] = insertedEncoders[j]!(row[insertedKeys[j]!]);
  return at;
}

/** `row` as one line of a COPY of the clicks table's CLICK_COLUMNS from STDIN (text format), its newline included. */
export function copyLine(row: ClickRow): string {
  let line = copyEncoders[0]!(row[copyKeys[0]!]);
  for (let j = 1; j < copyKeys.length; j++) line += `\t${copyEncoders[j]!(row[copyKeys[j]!])}`;
  return `${line}\n`;
}
