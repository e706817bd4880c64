/**
 * Where a click came from, as its stats show it: the host of the Referer header ("t.me",
 * "vk.com"), lower-case, without "www." and port, at most 100 characters; "" when the visitor's
 * browser sent none (direct, an app, a QR code) or one that is not a URL. The roll-ups keep it as the
 * `referrer` dimension; the same rule is written in SQL for the raw clicks of a range's edges and
 * for the migration that filled the roll-ups of clicks recorded before, so all three agree.
 */
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";

/** The characters that end a host in a URL, in the order they are cut at. */
const ENDS = ["/", "?", "#", ":"] as const;
const MAX = 100;

export function referrerHost(referer: string | null | undefined): string {
  if (!referer) return "";
  const at = referer.indexOf("://");
  if (at < 0) return "";
  let host = referer.slice(at + 3);
  for (const end of ENDS) {
    const i = host.indexOf(end);
    if (i >= 0) host = host.slice(0, i);
  }
  // ASCII only, as SQLite's lower() does
  host = host.replace(/[A-Z]/g, (c) => c.toLowerCase());
  if (host.startsWith("www.")) host = host.slice(4);
  return host.slice(0, MAX);
}

/**
 * referrerHost in SQL, for `engine`'s dialect: the other ends of a host are made "/" and a "/" is
 * appended, so one cut at the first "/" does what the loop above does (and the expression stays short).
 */
export function referrerHostSql(engine: "sqlite" | "postgres", col: SQL | SQLWrapper): SQL {
  const find = (s: SQL, what: string) =>
    engine === "postgres" ? sql`strpos(${s}, ${sql.raw(`'${what}'`)})` : sql`instr(${s}, ${sql.raw(`'${what}'`)})`;
  const ref = sql`coalesce(${col}, '')`;
  let rest = sql`substr(${ref}, ${find(ref, "://")} + 3)`;
  for (const end of ENDS.slice(1)) rest = sql`replace(${rest}, ${sql.raw(`'${end}'`)}, '/')`;
  const cut = sql`(${rest} || '/')`;
  const host = sql`lower(substr(${cut}, 1, ${find(cut, "/")} - 1))`;
  const bare = sql`(case when ${host} like 'www.%' then substr(${host}, 5) else ${host} end)`;
  return sql`(case when ${find(ref, "://")} = 0 then '' else substr(${bare}, 1, ${sql.raw(String(MAX))}) end)`;
}

/** referrerHostSql as SQL text over the column named `column` (it binds no values), for statements built as text. */
export function referrerHostText(engine: "sqlite" | "postgres", column: string): string {
  const dialect = engine === "postgres" ? new PgDialect() : new SQLiteSyncDialect();
  return dialect.sqlToQuery(referrerHostSql(engine, sql.raw(column))).sql;
}
