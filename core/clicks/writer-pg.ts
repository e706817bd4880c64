/**
 * The click writer in cluster mode: the same batches, the same work-out (writer.ts `workOut`) and the
 * same listeners as on SQLite, in one PostgreSQL transaction per batch. What the SQLite writer asks
 * its connection click by click (a visitor's last unique click, a user agent's id) is read here in a
 * few set-wise queries before the batch is worked out, and what it writes row by row goes in
 * multi-row statements.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import type { LinkRow } from "../../db/schema";
import { transaction, type AsyncDb, type AsyncTx } from "../../db/async";
import { runClickListenersPg, type ClickListener, type StoredClick } from "./listeners";
import { afterSeq, lastSeqOf, packedLength, NUMS, type PackedClicks } from "./packed";
import type { ClickWriter } from "./writer";
import { linkIdsOf, storedUaOf, visitorOfClick, workOut } from "./work-out";

/** Rows or keys per statement: 15 parameters per click row keep a chunk far below PostgreSQL's 65,535. */
const CHUNK = 2000;
const UA_IDS_MAX = 20000;

function chunks<T>(list: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/**
 * A click writer on PostgreSQL (`deps.asyncDb`), feeding every stored batch to `listeners` (each
 * must have its `postgres` form) in its transaction, and keeping the mark of journal `journal`.
 *
 * Several nodes write at once: rows that two batches may both touch (links' counters, visitors,
 * roll-ups) are written in key order, so their row locks are taken in one order and two writers
 * wait for each other instead of deadlocking; a deadlock or serialization failure that happens
 * anyway is a transient error, and the write queue retries the batch whole. Two nodes that each
 * see a visitor's first click on a link within the same moment may both count it unique.
 */
export function createPgClickWriter(deps: Deps, listeners: readonly ClickListener[], opts: { journal?: string } = {}): ClickWriter {
  const journal = opts.journal ?? "local";
  const missing = listeners.filter((l) => !l.postgres).map((l) => l.name || "(anonymous)");
  if (missing.length) throw new Error(`click writer: listener(s) without a PostgreSQL form: ${missing.join(", ")}`);
  const db: AsyncDb = deps.asyncDb;
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
        const { links } = tx.tables;
        for (const id of [...worked.counts.keys()].sort((a, b) => a - b)) {
          const c = worked.counts.get(id)!;
          await tx
            .update(links)
            .set({ totalClicks: sql`${links.totalClicks} + ${c.total}`, uniqueClicks: sql`${links.uniqueClicks} + ${c.unique}`, botClicks: sql`${links.botClicks} + ${c.bots}` })
            .where(eq(links.id, id));
        }
        if (worked.kept.length && listeners.length) await runClickListenersPg(listeners, tx, deps, worked.kept, isolate);
        if (seq > 0) {
          const { clickJournal } = tx.tables;
          await tx
            .insert(clickJournal)
            .values({ journal, seq })
            .onConflictDoUpdate({ target: clickJournal.journal, set: { seq: sql`greatest(click_journal.seq, excluded.seq)` } });
        }
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
function wantedBy(batch: { nums: Float64Array; refs: Uint32Array; strings: string[] }, alive: Map<number, LinkRow>, known: Map<string, number>) {
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
    await tx.insert(userAgents).values(part.map((ua) => ({ ua }))).onConflictDoNothing();
    for (const row of await tx.select().from(userAgents).where(inArray(userAgents.ua, part))) learnt.set(row.ua, row.id);
  }
}

/** Each visitor's last unique click (ms) on each link, for the visitors of the batch. */
async function lastUniques(tx: AsyncTx, visitors: Map<number, Set<string>>): Promise<Map<number, Map<string, number>>> {
  const { clickVisitors } = tx.tables;
  const out = new Map<number, Map<string, number>>();
  for (const [linkId, hashes] of visitors) {
    const m = new Map<string, number>();
    out.set(linkId, m);
    for (const part of chunks([...hashes]))
      for (const row of await tx
        .select({ hash: clickVisitors.visitorHash, at: clickVisitors.lastUniqueAt })
        .from(clickVisitors)
        .where(and(eq(clickVisitors.linkId, linkId), inArray(clickVisitors.visitorHash, part))))
        m.set(row.hash, row.at.getTime());
  }
  return out;
}

/** Inserts the clicks and sets each one's id (PostgreSQL returns the ids of a multi-row VALUES insert in its order). */
async function insertClicks(tx: AsyncTx, kept: StoredClick[]): Promise<void> {
  const { clicks } = tx.tables;
  for (const part of chunks(kept)) {
    const ids = await tx
      .insert(clicks)
      .values(part.map(({ click: { id: _id, ...row } }) => row))
      .returning({ id: clicks.id });
    if (ids.length !== part.length) throw new Error(`click insert wrote ${ids.length} of ${part.length} rows`);
    part.forEach((r, j) => (r.click.id = ids[j]!.id));
  }
}

/** The visitors whose click was unique, in key order. */
async function upsertVisitors(tx: AsyncTx, uniques: Map<number, Map<string, number>>): Promise<void> {
  const { clickVisitors } = tx.tables;
  const rows: { linkId: number; visitorHash: string; lastUniqueAt: Date }[] = [];
  for (const linkId of [...uniques.keys()].sort((a, b) => a - b))
    for (const [visitorHash, at] of [...uniques.get(linkId)!].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      rows.push({ linkId, visitorHash, lastUniqueAt: new Date(at) });
  for (const part of chunks(rows))
    await tx
      .insert(clickVisitors)
      .values(part)
      .onConflictDoUpdate({ target: [clickVisitors.linkId, clickVisitors.visitorHash], set: { lastUniqueAt: sql`excluded.last_unique_at` } });
}
