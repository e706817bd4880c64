/**
 * A process of its own for the replay heap measure (replay-stream.test.ts): the test suite's own
 * process carries other files' leftovers (timers, pools, background work) whose allocations would
 * count as replay's. Replays `argv[2]` (a warm-up journal) and then `argv[3]` into DATA_DIR's
 * database, measuring the heap, and prints what it saw as one JSON line.
 */
import { loadConfig } from "../../config";
import { clickWriterOf, createDeps } from "../../app";
import { silentLogger } from "../../core/log";
import { readJournal } from "../../core/clicks/journal";
import { packedLength } from "../../core/clicks/packed";
import { replayJournal } from "../../core/clicks/replay";
import { createWriteQueue, type WriteQueue } from "../../core/clicks/write-queue";

const [warm, dir] = process.argv.slice(2) as [string, string];
const deps = createDeps(loadConfig(), { log: silentLogger });
const writer = clickWriterOf(deps);

/** The heap in use after a full collection. */
const heap = () => {
  Bun.gc(true);
  return process.memoryUsage().heapUsed;
};

// a first, small replay warms the writer up (its statements, the database's pages)
await replayJournal(warm, writer, createWriteQueue(writer, silentLogger), silentLogger);

// what the backlog takes read whole, as replay did before it streamed
let before = heap();
let whole: unknown[] | null = readJournal(dir).records;
const wholeBytes = heap() - before;
const wholeLength = whole.length;
whole = null;

const inner = createWriteQueue(writer, silentLogger);
let most = 0;
const queue: WriteQueue = {
  add(batch) {
    inner.add(batch);
    most = Math.max(most, inner.pending, packedLength(batch));
  },
  flush: () => inner.flush(),
  get pending() {
    return inner.pending;
  },
};
before = heap();
const grown: number[] = [];
const done = await replayJournal(dir, writer, queue, silentLogger, () => grown.push(heap() - before));
console.log(JSON.stringify({ wholeLength, wholeBytes, most, grown, replayed: done.replayed, lastSeq: done.lastSeq }));
process.exit(0);
