import { inArray } from "drizzle-orm";
import type { Statement } from "bun:sqlite";
import type { Deps } from "../deps";
import { links, type ClickRow, type LinkRow } from "../../db/schema";
import { writeTransaction, type Tx } from "../../db/transaction";
import { parsedUa, type GeoLookup } from "./enrich";
import { ClickKinds, runClickListeners, type ClickListener, type ListenerFailure, type SqliteWriterDeps, type StoredClick } from "./listeners";
import { memoize } from "../memo";
import { NUMS, REFS, lastSeqOf, packedLength, type PackedClicks } from "./packed";

export const UNIQUE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A visitor is IP + User-Agent; only a 64-bit hash of the pair is kept, to decide uniqueness. */
const visitorHashOf = memoize((pair: string) => Bun.hash(pair).toString(16), 20000);

/** Clicks per INSERT statement: 64 rows × 15 columns stays far below SQLite's 32,766 bound parameters. */
export const INSERT_CHUNK = 64;
const CLICK_COLUMNS = 15;
const CLICK_ROW = `(${Array(CLICK_COLUMNS).fill("?").join(", ")})`;
/** Stored referers and user agents are cut to these lengths. */
const MAX_REFERER = 2048;
const MAX_USER_AGENT = 1024;

type Statements = {
  visitor: Statement;
  upsertVisitor: Statement;
  count: Statement;
  uaId: Statement;
  addUa: Statement;
  /** the INSERT of `n` clicks (one statement per size, prepared on first use) */
  insert: (n: number) => Statement;
  /** user_agents ids known to be committed, by text */
  uaIds: Map<string, number>;
};
const UA_IDS_MAX = 20000;

/** Prepared statements of a writer, on its connection (drizzle's builder is too slow per row here). */
function prepareStatements(deps: SqliteWriterDeps): Statements {
  const db = deps.db.$client;
  const inserts = new Map<number, Statement>();
  return {
    visitor: db.prepare("select last_unique_at as at from click_visitors where link_id = ? and visitor_hash = ?"),
    upsertVisitor: db.prepare("insert into click_visitors (link_id, visitor_hash, last_unique_at) values (?, ?, ?) on conflict (link_id, visitor_hash) do update set last_unique_at = excluded.last_unique_at"),
    count: db.prepare("update links set total_clicks = total_clicks + ?, unique_clicks = unique_clicks + ?, bot_clicks = bot_clicks + ? where id = ?"),
    uaId: db.prepare("select id from user_agents where ua = ?"),
    addUa: db.prepare("insert into user_agents (ua) values (?) returning id"),
    insert(n) {
      let s = inserts.get(n);
      if (!s) {
        s = db.prepare(`insert into clicks (link_id, clicked_at, ip, country, city, device, browser, os, referer, ua_id, is_bot, bot_name, is_unique, rule, variant) values ${Array(n).fill(CLICK_ROW).join(", ")}`);
        inserts.set(n, s);
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
export function createClickWriter(deps: SqliteWriterDeps, listeners: readonly ClickListener[], opts: { journal?: string } = {}): ClickWriter {
  const journal = opts.journal ?? "local";
  const st = prepareStatements(deps);
  const geoOf = deps.geo;
  const mark = deps.db.$client.prepare("insert into click_journal (journal, seq) values (?, ?) on conflict (journal) do update set seq = max(seq, excluded.seq)");
  const readMark = deps.db.$client.prepare("select seq from click_journal where journal = ?");
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
        if (worked.kept.length && listeners.length) runClickListeners(listeners, tx, deps, worked.kept, isolate);
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

/** How the batch's work-out asks its database (synchronously: from statements, or from rows read beforehand). */
export interface BatchLookups {
  /** when the visitor `hash` last made a unique click on the link (ms), or -Infinity */
  lastUnique(linkId: number, hash: string): number;
  /** the visitor's click at `at` is unique: remember it */
  unique(linkId: number, hash: string, at: number): void;
  /** the id of a user agent's row (cut to its stored length) */
  uaId(ua: string): number;
}

/** A batch worked out: the clicks to store (with their links) and each link's counter increments. */
export interface WorkedBatch {
  kept: StoredClick[];
  counts: Map<number, { total: number; unique: number; bots: number }>;
}

/**
 * The visitor of click `i` that decides its uniqueness: a keyed hash made on the request (PRIVACY_IP
 * truncate/none) as it is, otherwise the hash of address and agent, worked out once per pair of
 * references (a missing and an empty address are one visitor, as in click_visitors). null for bots.
 */
export function visitorOfClick(batch: PackedClicks, i: number, hashes: Map<number, string>): string | null {
  const { nums, refs, strings } = batch;
  if (nums[i * NUMS + 2] === 1) return null;
  const visitorRef = refs[i * REFS + 4]!;
  if (visitorRef) return strings[visitorRef - 1]!;
  const ipRef = refs[i * REFS]!;
  const uaRef = refs[i * REFS + 1]!;
  const key = ipRef * (strings.length + 1) + uaRef;
  let hash = hashes.get(key);
  if (hash === undefined) {
    const str = (ref: number) => (ref === 0 ? "" : strings[ref - 1]!);
    hashes.set(key, (hash = visitorHashOf(`${str(ipRef)}\n${str(uaRef)}`)));
  }
  return hash;
}

/** The user agent of click `i` as stored (cut to MAX_USER_AGENT), or null. */
export function storedUaOf(batch: PackedClicks, i: number): string | null {
  const ref = batch.refs[i * REFS + 1]!;
  return ref === 0 ? null : batch.strings[ref - 1]!.slice(0, MAX_USER_AGENT);
}

/**
 * Works a batch out, the same on every database: the clicks of links that still exist (`alive`),
 * each with its geo, device, user-agent id and uniqueness (through `lookups`), and the counters per
 * link. Whatever follows from a string (geo of an address, device and id of a user agent, the
 * visitor hash of an address and agent) is worked out once per distinct string of the batch, and
 * the per-click work is array and map lookups by number. Each link in `alive` is advanced to the
 * counters it has once the batch is stored (the listeners see each link as stored now).
 */
export function workOut(batch: PackedClicks, alive: Map<number, LinkRow>, geoOf: GeoLookup, lookups: BatchLookups): WorkedBatch {
  const { nums, refs, strings } = batch;
  const n = packedLength(batch);
  const counts = new Map<number, { total: number; unique: number; bots: number }>();
  const kept: StoredClick[] = [];
  if (!n) return { kept, counts };
  const str = (ref: number) => (ref === 0 ? null : strings[ref - 1]!);
  /** pair keys below are ref × width + ref: unique, and well inside 2^53 for any batch that fits in memory */
  const width = strings.length + 1;

  /** `fact` of the string behind a reference, worked out on its first use in this batch */
  const perRef = <T>(fact: (s: string | null) => T) => {
    const known: T[] = [];
    return (ref: number): T => (known[ref] ??= fact(str(ref)));
  };
  const kinds = new ClickKinds();
  const geoOfRef = perRef((ip) => {
    const g = geoOf(ip);
    return { ...g, cls: kinds.country(g.country) };
  });
  const agentOfRef = perRef((ua) => ({ ...parsedUa(ua ?? ""), id: ua === null ? null : lookups.uaId(ua.slice(0, MAX_USER_AGENT)) }));
  const refererOf = perRef((referer) => referer?.slice(0, MAX_REFERER) ?? null);
  /** geo looked up on the request (PRIVACY_IP truncate/none: the full address was not kept) */
  const givenGeoOfRef = perRef((text) => {
    const [country, city] = (text ?? "\n").split("\n") as [string, string];
    const g = { country: country || null, city: city || null };
    return { ...g, cls: kinds.country(g.country) };
  });
  /** the agent class of a kind, by agent, bot name and is-bot references */
  const agentKinds = new Map<number, number>();

  /** the last unique click by link, then by visitor hash */
  const lastUnique = new Map<number, Map<string, number>>();
  const hashes = new Map<number, string>();

  for (let i = 0; i < n; i++) {
    const linkId = nums[i * NUMS]!;
    const link = alive.get(linkId);
    if (!link) continue;
    const at = nums[i * NUMS + 1]!;
    const isBot = nums[i * NUMS + 2] === 1;
    const ipRef = refs[i * REFS]!;
    const uaRef = refs[i * REFS + 1]!;
    const botRef = refs[i * REFS + 3]!;
    const geoRef = refs[i * REFS + 5]!;
    const geo = geoRef ? givenGeoOfRef(geoRef) : geoOfRef(ipRef);
    const agent = agentOfRef(uaRef);
    const device = isBot ? "bot" : agent.device;
    const botName = str(botRef);

    let isUnique = false;
    const hash = visitorOfClick(batch, i, hashes);
    if (hash !== null) {
      let byVisitor = lastUnique.get(linkId);
      if (!byVisitor) lastUnique.set(linkId, (byVisitor = new Map()));
      let last = byVisitor.get(hash);
      if (last === undefined) last = lookups.lastUnique(linkId, hash);
      if (at - last >= UNIQUE_WINDOW_MS) {
        isUnique = true;
        last = at;
        lookups.unique(linkId, hash, at);
      }
      byVisitor.set(hash, last);
    }

    const agentKey = (uaRef * width + botRef) * 2 + (isBot ? 1 : 0);
    let agentKind = agentKinds.get(agentKey);
    if (agentKind === undefined) agentKinds.set(agentKey, (agentKind = kinds.agent(device, agent.browser, agent.os, isBot, botName)));

    const click: ClickRow = {
      id: 0, // set when inserted
      linkId,
      clickedAt: new Date(at),
      ip: str(ipRef),
      country: geo.country,
      city: geo.city,
      device,
      browser: agent.browser,
      os: agent.os,
      referer: refererOf(refs[i * REFS + 2]!),
      uaId: agent.id,
      isBot,
      botName,
      isUnique,
      rule: nums[i * NUMS + 3]! < 0 ? null : nums[i * NUMS + 3]!,
      variant: nums[i * NUMS + 4]! < 0 ? null : nums[i * NUMS + 4]!,
    };
    kept.push({ click, link, kind: ClickKinds.of(geo.cls, agentKind) });
    let c = counts.get(linkId);
    if (!c) counts.set(linkId, (c = { total: 0, unique: 0, bots: 0 }));
    c.total++;
    if (isUnique) c.unique++;
    if (isBot) c.bots++;
  }
  for (const [id, c] of counts) {
    const link = alive.get(id)!;
    link.totalClicks += c.total;
    link.uniqueClicks += c.unique;
    link.botClicks += c.bots;
  }
  return { kept, counts };
}

/** The distinct link ids of a batch. */
export function linkIdsOf(nums: Float64Array): number[] {
  const ids = new Set<number>();
  for (let i = 0; i < nums.length; i += NUMS) ids.add(nums[i]!);
  return [...ids];
}

/** The batch's links that still exist (clicks of the others are dropped), by id; a query per 500 links. */
function linksOf(tx: Tx, nums: Float64Array): Map<number, LinkRow> {
  const all = linkIdsOf(nums);
  const found = new Map<number, LinkRow>();
  for (let i = 0; i < all.length; i += 500)
    for (const l of tx.select().from(links).where(inArray(links.id, all.slice(i, i + 500))).all()) found.set(l.id, l);
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
 * again) and sets each row's id. One multi-row INSERT inside our write transaction numbers its rows
 * consecutively (AUTOINCREMENT gives each row the largest id so far + 1, and no other connection can
 * write meanwhile), so the ids are the last one and the ones before it.
 */
function insertClicks(st: Statements, rows: StoredClick[]) {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    const chunk = rows.slice(i, i + INSERT_CHUNK);
    const args: (string | number | null)[] = new Array(chunk.length * CLICK_COLUMNS);
    let k = 0;
    for (const { click: r } of chunk) {
      args[k++] = r.linkId;
      args[k++] = r.clickedAt.getTime();
      args[k++] = r.ip;
      args[k++] = r.country;
      args[k++] = r.city;
      args[k++] = r.device;
      args[k++] = r.browser;
      args[k++] = r.os;
      args[k++] = r.referer;
      args[k++] = r.uaId;
      args[k++] = r.isBot ? 1 : 0;
      args[k++] = r.botName;
      args[k++] = r.isUnique ? 1 : 0;
      args[k++] = r.rule;
      args[k++] = r.variant;
    }
    const res = st.insert(chunk.length).run(...args);
    if (res.changes !== chunk.length) throw new Error(`click insert wrote ${res.changes} of ${chunk.length} rows`);
    const first = Number(res.lastInsertRowid) - chunk.length + 1;
    chunk.forEach((r, j) => (r.click.id = first + j));
  }
}
