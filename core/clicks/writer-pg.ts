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
import { eq, sql } from "drizzle-orm";
import { rowsOf, transaction, type AsyncDb, type AsyncTx } from "../../db/async";
import type { ClickListener } from "./listeners";
import { afterSeq, lastSeqOf, packedLength, type PackedClicks } from "./packed";
import type { ClickWriter, ClickWriterDeps } from "./writer";
import { NodeNameFencedError } from "./write-failures";
import { linkIdsOf, workOut } from "./work-out";
import { addToCounters, insertClicks, lastUniques, linksOf, markOf, upsertVisitors, userAgentIds, wantedBy, writeRowsPg } from "./pg-batch";

/** User-agent ids kept in memory between batches, at most. */
const UA_IDS_MAX = 20000;

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
