import { inArray } from "drizzle-orm";
import type { Statement } from "bun:sqlite";
import type { Deps } from "../deps";
import { links, type ClickRow, type LinkRow } from "../../db/schema";
import { deviceOf, geoOf } from "./enrich";
import { CLICK_HOOKS, runClickHooks, type Tx } from "./hooks";
import { memoize } from "../memo";

/** What the redirect knows about a click; the rest (geo, device, uniqueness) is worked out when flushing. */
export interface PendingClick {
  linkId: number;
  clickedAt: Date;
  ip: string | null;
  userAgent: string | null;
  referer: string | null;
  isBot: boolean;
  botName: string | null;
}

export const UNIQUE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A click ready to be written, and the hash of its visitor (IP + User-Agent) that decides `is_unique`. */
export type Enriched = { row: ClickRow; visitorHash: string };

/** A visitor is IP + User-Agent; only a 64-bit hash of the pair is kept, to decide uniqueness. */
const visitorHashOf = memoize((pair: string) => Bun.hash(pair).toString(16), 20000);

/** The stored click of a pending one: geo from the IP, device, browser and OS from the User-Agent. */
export function enrich(deps: Deps, c: PendingClick): Enriched {
  const geo = geoOf(deps.config.geoipDb, c.ip);
  const dev = deviceOf(c.userAgent, c.isBot);
  const row: ClickRow = {
    id: 0, // set when inserted
    linkId: c.linkId,
    clickedAt: c.clickedAt,
    ip: c.ip,
    country: geo.country,
    city: geo.city,
    device: dev.device,
    browser: dev.browser,
    os: dev.os,
    referer: c.referer?.slice(0, 2048) ?? null,
    userAgent: c.userAgent?.slice(0, 1024) ?? null,
    isBot: c.isBot,
    botName: c.botName,
    isUnique: false,
  };
  return { row, visitorHash: visitorHashOf(`${c.ip ?? ""}\n${c.userAgent ?? ""}`) };
}

/** Clicks per INSERT statement: 64 rows × 13 columns stays far below SQLite's 32,766 bound parameters. */
export const INSERT_CHUNK = 64;
const CLICK_COLUMNS = 13;
const CLICK_ROW = `(${Array(CLICK_COLUMNS).fill("?").join(", ")})`;

type Statements = {
  visitor: Statement;
  upsertVisitor: Statement;
  alive: Statement;
  count: Statement;
  /** the INSERT of `n` clicks (one statement per size, prepared on first use) */
  insert: (n: number) => Statement;
};
const statements = new WeakMap<object, Statements>();

/** Prepared statements of the flusher, one set per connection (drizzle's builder is too slow per row here). */
function statementsOf(deps: Deps): Statements {
  let st = statements.get(deps.db);
  if (!st) {
    const db = deps.db.$client;
    const inserts = new Map<number, Statement>();
    st = {
      visitor: db.prepare("select last_unique_at as at from click_visitors where link_id = ? and visitor_hash = ?"),
      upsertVisitor: db.prepare("insert into click_visitors (link_id, visitor_hash, last_unique_at) values (?, ?, ?) on conflict (link_id, visitor_hash) do update set last_unique_at = excluded.last_unique_at"),
      alive: db.prepare("select id from links where id = ?"),
      count: db.prepare("update links set total_clicks = total_clicks + ?, unique_clicks = unique_clicks + ?, bot_clicks = bot_clicks + ? where id = ?"),
      insert(n) {
        let s = inserts.get(n);
        if (!s) {
          s = db.prepare(`insert into clicks (link_id, clicked_at, ip, country, city, device, browser, os, referer, user_agent, is_bot, bot_name, is_unique) values ${Array(n).fill(CLICK_ROW).join(", ")}`);
          inserts.set(n, s);
        }
        return s;
      },
    };
    statements.set(deps.db, st);
  }
  return st;
}

/**
 * Inserts the clicks INSERT_CHUNK rows per statement (a statement per row costs about half as much
 * again) and sets each row's id. One multi-row INSERT inside our write transaction numbers its rows
 * consecutively (AUTOINCREMENT gives each row the largest id so far + 1, and no other connection can
 * write meanwhile), so the ids are the last one and the ones before it.
 */
function insertClicks(st: Statements, rows: ClickRow[]) {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    const args: (string | number | null)[] = new Array(chunk.length * CLICK_COLUMNS);
    let k = 0;
    for (const r of chunk) {
      args[k++] = r.linkId;
      args[k++] = r.clickedAt.getTime();
      args[k++] = r.ip;
      args[k++] = r.country;
      args[k++] = r.city;
      args[k++] = r.device;
      args[k++] = r.browser;
      args[k++] = r.os;
      args[k++] = r.referer;
      args[k++] = r.userAgent;
      args[k++] = r.isBot ? 1 : 0;
      args[k++] = r.botName;
      args[k++] = r.isUnique ? 1 : 0;
    }
    const res = st.insert(chunk.length).run(...args);
    if (res.changes !== chunk.length) throw new Error(`click insert wrote ${res.changes} of ${chunk.length} rows`);
    const first = Number(res.lastInsertRowid) - chunk.length + 1;
    chunk.forEach((r, j) => (r.id = first + j));
  }
}

/**
 * Writes a batch inside the caller's transaction: the visitor rows that decide `is_unique`, the
 * clicks, the counters on the links, and every CLICK_HOOK. Clicks of links deleted meanwhile are dropped.
 */
export function writeBatch(tx: Tx, deps: Deps, rows: Enriched[]) {
  const st = statementsOf(deps);
  const alive = new Set([...new Set(rows.map((r) => r.row.linkId))].filter((id) => st.alive.get(id)));
  const lastUnique = new Map<string, number>();
  const kept: ClickRow[] = [];
  const counts = new Map<number, { total: number; unique: number; bots: number }>();
  for (const { row: r, visitorHash } of rows) {
    if (!alive.has(r.linkId)) continue;
    const at = r.clickedAt.getTime();
    if (!r.isBot) {
      const key = `${r.linkId}:${visitorHash}`;
      let last = lastUnique.get(key);
      if (last === undefined) last = (st.visitor.get(r.linkId, visitorHash) as { at: number } | null)?.at ?? -Infinity;
      if (at - last! >= UNIQUE_WINDOW_MS) {
        r.isUnique = true;
        last = at;
        st.upsertVisitor.run(r.linkId, visitorHash, at);
      }
      lastUnique.set(key, last!);
    }
    kept.push(r);
    const n = counts.get(r.linkId) ?? { total: 0, unique: 0, bots: 0 };
    n.total++;
    if (r.isUnique) n.unique++;
    if (r.isBot) n.bots++;
    counts.set(r.linkId, n);
  }
  insertClicks(st, kept);
  for (const [id, n] of counts) st.count.run(n.total, n.unique, n.bots, id);
  if (!kept.length || !CLICK_HOOKS.length) return;
  const linkRows = new Map<number, LinkRow>(tx.select().from(links).where(inArray(links.id, [...counts.keys()])).all().map((l) => [l.id, l]));
  runClickHooks(tx, deps, kept.map((click) => ({ click, link: linkRows.get(click.linkId)! })));
}
