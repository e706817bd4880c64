import { briefError, createRepeatLog, type Logger } from "../log";
import type { ClickWriter } from "./writer";
import { concatPacked, lastSeqOf, packClicks, packedLength, unpackClicks, type PackedClicks } from "./packed";
import { isTransientWriteError, salvageBatch } from "./write-failures";

/** Batches waiting for a writer, and the policy for a batch that cannot be written. */
export interface WriteQueue {
  /** Queues a batch after what is already held. */
  add(batch: PackedClicks): void;
  /**
   * Writes everything held, in transactions of at most maxWrite clicks, and resolves to how many
   * clicks that was. On failure the failed part and what follows it are kept (see below) and the
   * error rethrown; when the database is closed, nothing is kept. Flushes run one after the other:
   * one called while another is under way waits for it.
   */
  flush(): Promise<number>;
  readonly pending: number;
}

/**
 * The writer side's queue, on whichever thread writes. Nothing is dropped and one bad click never
 * holds up the others: a failure that passes by itself (SQLite BUSY, FULL, IOERR…) keeps the whole
 * batch, in order, for the next flush; any other failure is retried whole once, and when the batch
 * fails a second time in a row it is split (salvageBatch) so that every part that can be written is.
 * `onCommitted` hears the journal mark and the click count of each batch written; `onDropped` the
 * count of clicks given up on (one that cannot be written even alone; the database closed).
 */
/**
 * Clicks per transaction at most. Batches queue up while a write is under way (a slow disk, a busy
 * PostgreSQL, an outage); they are written in parts of this size, so no transaction, and none of
 * what the writer builds for it, grows with the backlog. The size of the writer thread's live
 * batches: large enough that a transaction's fixed cost is spread thin.
 */
export const MAX_WRITE = 10_000;

/**
 * The largest transaction for a sink whose memory cap is `memoryCap` clicks: MAX_WRITE, and never
 * more than half the cap, so that what was held when a spill began is written in parts no larger
 * than those fed from disk after it (see DiskFeed).
 */
export const writeLimit = (memoryCap: number | undefined) =>
  memoryCap === undefined ? MAX_WRITE : Math.max(1, Math.min(MAX_WRITE, Math.floor(memoryCap / 2)));

export function createWriteQueue(
  writer: ClickWriter,
  log: Logger,
  onCommitted: (seq: number, clicks: number) => void = () => {},
  onDropped: (clicks: number) => void = () => {},
  /** clicks per transaction at most (writeLimit of the sink's memory cap) */
  maxWrite = MAX_WRITE,
): WriteQueue {
  /** the batches waiting, oldest first */
  let held: PackedClicks[] = [];
  const heldLength = () => held.reduce((n, b) => n + packedLength(b), 0);
  /** the next part to write: the oldest batches up to maxWrite clicks (a batch larger than that is split) */
  const takePart = (): PackedClicks | null => {
    if (!held.length) return null;
    let part = held.shift()!;
    if (packedLength(part) > maxWrite) {
      const clicks = unpackClicks(part);
      held.unshift(packClicks(clicks.slice(maxWrite)));
      return packClicks(clicks.slice(0, maxWrite));
    }
    while (held.length && packedLength(part) + packedLength(held[0]!) <= maxWrite) part = concatPacked(part, held.shift()!);
    return part;
  };
  let failures = 0; // flushes in a row that failed for a reason that is not transient
  /** transient failures since the last write that went through, and when the first of them was */
  let outage = { count: 0, since: 0 };
  const repeat = createRepeatLog(log);

  const committed = (batch: PackedClicks) => {
    onCommitted(lastSeqOf(batch), packedLength(batch));
  };

  let running: Promise<unknown> = Promise.resolve();
  function flush(): Promise<number> {
    const next = running.then(flushNow);
    running = next.catch(() => {});
    return next;
  }

  async function flushNow(): Promise<number> {
    let written = 0;
    for (let batch = takePart(); batch; batch = takePart()) written += await writePart(batch);
    return written;
  }

  /**
   * After a transient failure the batch may have committed all the same (the connection lost while
   * COMMIT was under way): the mark says, and the clicks at or below it are not written again.
   */
  async function notYetCommitted(batch: PackedClicks): Promise<PackedClicks> {
    const mark = await writer.committedSeq();
    if (lastSeqOf(batch) <= 0 || mark <= 0) return batch;
    const left = unpackClicks(batch).filter((c) => c.seq === 0 || c.seq > mark);
    return left.length === packedLength(batch) ? batch : packClicks(left);
  }

  async function writePart(part: PackedClicks): Promise<number> {
    let batch = part;
    try {
      if (outage.count) batch = await notYetCommitted(batch);
      const n = packedLength(batch) ? await writer.write(batch) : 0;
      if (outage.count)
        log.info(
          `click writer: writing again after ${outage.count} failed attempts over ${Math.round((performance.now() - outage.since) / 1000)} s; no click was lost`,
        );
      failures = 0;
      outage = { count: 0, since: 0 };
      committed(batch);
      return n;
    } catch (e) {
      if (isTransientWriteError(e)) {
        // kept whole and in order, however long it takes: the journal holds these clicks too
        if (!outage.count) outage.since = performance.now();
        outage.count++;
        failures = 0;
        held.unshift(batch);
        repeat("warn", "transient", `click writer: cannot write now (${briefError(e)}); ${heldLength()} clicks wait and are retried`);
        throw e;
      }
      if (/closed/i.test((e as Error).message)) {
        const lost = packedLength(batch) + heldLength();
        log.error(`click writer: database closed, ${lost} clicks not written (they stay in the journal, if there is one)`);
        held = [];
        onDropped(lost);
        return 0;
      }
      failures++;
      if (failures >= 2) {
        log.error(`click writer: a batch of ${packedLength(batch)} clicks failed again, splitting it`, e);
        const salvaged = await salvageBatch(log, unpackClicks(batch), async (part, isolate) => {
          const packed = packClicks(part);
          await writer.write(packed, isolate);
          committed(packed);
        });
        const given = packedLength(batch) - salvaged.written - salvaged.retry.length;
        if (given > 0) onDropped(given);
        if (!salvaged.retry.length) {
          failures = 0;
          return salvaged.written;
        }
        held.unshift(packClicks(salvaged.retry));
        e = salvaged.error;
        if (!outage.count) outage.since = performance.now();
        outage.count++;
      } else held.unshift(batch);
      log.error(`click writer: a batch of ${packedLength(held[0]!)} clicks failed, will retry`, e);
      throw e;
    }
  }

  return {
    add(batch) {
      if (packedLength(batch)) held.push(batch);
    },
    flush,
    get pending() {
      return heldLength();
    },
  };
}
