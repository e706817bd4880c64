import type { Logger } from "../log";
import { readJournal } from "./journal";
import { packClicks } from "./packed";
import type { WriteQueue } from "./write-queue";
import type { ClickWriter } from "./writer";

/** Clicks per transaction when a journal is written again. */
const REPLAY_BATCH = 10_000;

/**
 * Writes again every click of the journal in `dir` that the database has not committed: those above
 * the writer's mark, in order, through `queue` (the same failure policy as live batches). A torn last
 * record (a process killed while appending it, before its visitor was answered) is ignored. Returns
 * how many clicks were written, the highest sequence number the journal or the mark has used, and
 * the segment files read (all of them committed now). Throws when the database refuses the clicks,
 * leaving the journal as it is.
 */
export async function replayJournal(
  dir: string,
  writer: ClickWriter,
  queue: WriteQueue,
  log: Logger,
): Promise<{ replayed: number; lastSeq: number; segments: string[] }> {
  const mark = await writer.committedSeq();
  const { records, torn, segments } = readJournal(dir);
  const todo = records.filter((r) => r.seq > mark);
  for (let i = 0; i < todo.length; i += REPLAY_BATCH) {
    queue.add(packClicks(todo.slice(i, i + REPLAY_BATCH)));
    // a failing batch is retried whole once, then split (write-queue.ts); past that, the start fails
    for (let attempt = 0; ; attempt++) {
      try {
        await queue.flush();
        break;
      } catch (e) {
        if (attempt >= 2) throw e;
      }
    }
  }
  if (todo.length || torn)
    log.info(
      `click journal: ${todo.length} clicks written again, ${records.length - todo.length} were stored already${torn ? `; ${torn} torn last record(s) ignored` : ""}`,
    );
  const lastSeq = Math.max(mark, records.length ? records[records.length - 1]!.seq : 0);
  return { replayed: todo.length, lastSeq, segments };
}
