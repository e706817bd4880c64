import type { Logger } from "../log";
import { journalSegments } from "./journal";
import { journalCursor } from "./journal-cursor";
import { packClicks } from "./packed";
import type { WriteQueue } from "./write-queue";
import type { ClickWriter } from "./writer";

/** Clicks per transaction when a journal is written again, and read from it at a time. */
const REPLAY_BATCH = 10_000;

/**
 * Writes again every click of the journal in `dir` that the database has not committed: those above
 * the writer's mark, in order, through `queue` (the same failure policy as live batches). The journal
 * is read through a cursor, a part at a time, each part written before the next is read: what this
 * holds is one part and one segment's mapping, however many clicks wait (millions after a long
 * outage). A live journal (the write-back after a lost writer thread) is read up to its newest
 * record, the ones appended while this runs included. A torn last record (a process killed while
 * appending it, before its visitor was answered) is ignored. `onPart` hears each part as it is
 * committed. Returns how many clicks were written, the highest sequence number the journal or the
 * mark has used, and the segment files there were when it began (all of them committed now).
 * Throws when the database refuses the clicks; what was committed until then stays committed (the
 * mark says so), the rest stays in the journal.
 */
export async function replayJournal(
  dir: string,
  writer: ClickWriter,
  queue: WriteQueue,
  log: Logger,
  onPart: () => void = () => {},
): Promise<{ replayed: number; lastSeq: number; segments: string[] }> {
  const segments = journalSegments(dir);
  // a part a failed run left queued is written first (it is in the journal too): read again on top of it, it would pile up with each retry
  if (queue.pending) await flushRetrying(queue);
  const mark = await writer.committedSeq();
  const cursor = journalCursor(dir);
  let lastSeq = mark;
  let replayed = 0;
  for (let part = cursor.read(mark, REPLAY_BATCH); part.length; part = cursor.read(lastSeq, REPLAY_BATCH)) {
    queue.add(packClicks(part));
    await flushRetrying(queue);
    lastSeq = part[part.length - 1]!.seq;
    replayed += part.length;
    onPart();
  }
  if (replayed || cursor.torn)
    log.info(`click journal: ${replayed} clicks written again${cursor.torn ? `; ${cursor.torn} torn last record(s) ignored` : ""}`);
  return { replayed, lastSeq, segments };
}

/** A failing batch is retried whole once, then split (write-queue.ts); past that, the error is thrown. */
async function flushRetrying(queue: WriteQueue): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await queue.flush();
      return;
    } catch (e) {
      if (attempt >= 2) throw e;
    }
  }
}
