import type { Tables } from "../../db/async";
import type { ClickRow, LinkRow } from "../../db/schema";

/**
 * A stored click as the listeners see it. `kind` is equal for clicks of one batch that every roll-up
 * dimension counts alike (same country, device, browser, os, isBot and botName), so a listener can
 * group them by one number instead of comparing six values per click.
 */
export type StoredClick = { click: ClickRow; link: LinkRow; kind: number };

/** The tables a listener may write into, by their name in the schema (`"linkStatsTime"`, `"outbox"`…). */
export type TableName = { [K in keyof Tables]: Tables[K] extends { $inferInsert: object } ? K : never }[keyof Tables];

/** A row of table `K` as drizzle inserts it (property names, JS values: a Date for a time, an object for JSON). */
export type RowOf<K extends TableName> = Tables[K]["$inferInsert"];

type Prop<R> = keyof R & string;

/**
 * What happens to a row whose `keys` are already taken: it is dropped (`do: "nothing"`), or its `add`
 * columns are added to the stored row's (a counter). Without a rule, a taken key fails the batch.
 */
export type OnConflict<R> = { keys: readonly Prop<R>[]; do: "nothing" } | { keys: readonly Prop<R>[]; add: readonly Prop<R>[] };

/** Rows a listener wants written into one table. Every row gives the same columns. */
type RowsInto<K extends TableName> = { table: K; rows: readonly RowOf<K>[]; onConflict?: OnConflict<RowOf<K>> };

/** Rows into any one table (what a listener returns a list of). */
export type ListenerRows = { [K in TableName]: RowsInto<K> }[TableName];

/** The rows `rows` for table `table`, checked against that table's columns. */
export function rowsInto<K extends TableName>(table: K, rows: readonly RowOf<K>[], onConflict?: OnConflict<RowOf<K>>): ListenerRows {
  return { table, rows, onConflict } as ListenerRows;
}

/**
 * A reaction to stored clicks: a pure function of the batch and the time of its write that returns
 * the rows it wants written (roll-up increments, queued webhook deliveries). It touches no database:
 * each click writer writes the rows its own way inside the transaction that inserts the batch, so
 * they commit or roll back with the clicks themselves, on SQLite as on PostgreSQL. The listeners are
 * listed in one table by the composition root (app/click-listeners.ts) and handed to the writer, so
 * this mechanism knows none of them.
 */
export type ClickListener = (batch: readonly StoredClick[], now: Date) => readonly ListenerRows[];

/**
 * Numbers the kinds (StoredClick) of one batch: a country class (below 1024: a country is an ISO
 * alpha-2 code or null, so at most 677 of them) and an agent class (device, browser, os, isBot,
 * botName; a missing value counts as '', as in the roll-up's dimValue) make the kind. The writer
 * asks once per distinct address and agent; withKinds once per row.
 */
export class ClickKinds {
  private countries = new Map<string | null, number>();
  private agents = new Map<string, number>();

  country(country: string | null): number {
    let c = this.countries.get(country);
    if (c === undefined) this.countries.set(country, (c = this.countries.size));
    return c;
  }

  agent(device: string | null, browser: string | null, os: string | null, isBot: boolean, botName: string | null): number {
    const key = `${device ?? ""}\u0000${browser ?? ""}\u0000${os ?? ""}\u0000${isBot}\u0000${botName ?? ""}`;
    let a = this.agents.get(key);
    if (a === undefined) this.agents.set(key, (a = this.agents.size));
    return a;
  }

  static of(countryClass: number, agentClass: number): number {
    return agentClass * 1024 + countryClass;
  }
}

/** Clicks with their `kind`, for callers that have stored rows rather than the writer's packed batch. */
export function withKinds(batch: { click: ClickRow; link: LinkRow }[]): StoredClick[] {
  const kinds = new ClickKinds();
  return batch.map(({ click: c, link }) => ({
    click: c,
    link,
    kind: ClickKinds.of(kinds.country(c.country), kinds.agent(c.device, c.browser, c.os, c.isBot, c.botName)),
  }));
}

/**
 * Told about a listener that threw, or whose rows could not be written, while listeners are isolated
 * (each in a savepoint of its own: its rows are rolled back, the clicks and the other listeners' rows
 * kept); rethrowing fails the whole batch after all.
 */
export type ListenerFailure = (listener: ClickListener, error: unknown, batch: readonly StoredClick[]) => void;

/** The columns a write gives: the properties of its first row that hold a value. */
export function columnsOf(write: ListenerRows): string[] {
  const first = write.rows[0] as Record<string, unknown> | undefined;
  return first ? Object.keys(first).filter((k) => first[k] !== undefined) : [];
}

/**
 * The rows of a write in the order of their conflict keys, rows with the same key merged into one
 * (their `add` columns summed; only the first kept under `do: "nothing"`): a PostgreSQL upsert may
 * touch a row once per statement, and writers that lock rows in one order never deadlock.
 */
export function inKeyOrder(write: ListenerRows): Record<string, unknown>[] {
  const rows = write.rows as readonly Record<string, unknown>[];
  const rule = write.onConflict;
  if (!rule || rows.length < 2) return [...rows];
  const keys = rule.keys as readonly string[];
  const compare = (a: Record<string, unknown>, b: Record<string, unknown>) => {
    for (const k of keys) {
      const x = a[k] as number | string | Date;
      const y = b[k] as number | string | Date;
      if (x < y) return -1;
      if (x > y) return 1;
    }
    return 0;
  };
  const sorted = [...rows].sort(compare);
  const add = "add" in rule ? (rule.add as readonly string[]) : [];
  const out: Record<string, unknown>[] = [sorted[0]!];
  for (let i = 1; i < sorted.length; i++) {
    const row = sorted[i]!;
    const last = out[out.length - 1]!;
    if (compare(last, row) !== 0) out.push(row);
    else if (add.length) {
      const merged = { ...last };
      for (const c of add) merged[c] = Number(merged[c] ?? 0) + Number(row[c] ?? 0);
      out[out.length - 1] = merged;
    }
  }
  return out;
}
