import type { Config } from "../../config";
import { briefError, createLogger, type Logger } from "../log";
import { isDatabaseUnavailable } from "../../db/unavailable";
import type { ClickWriter } from "./writer";
import type { FromWriter, ToWriter } from "./thread";
import { createWriteQueue, writeLimit } from "./write-queue";

/** What a writer thread opens for itself from the configuration: a writer on its own connection. */
export type OpenWriter = (config: Config) => Promise<{ writer: ClickWriter; log: Logger; close(): Promise<void> | void }>;

/**
 * Transactions written between two collections of this thread's garbage. Each transaction leaves its
 * worked-out clicks, COPY text and JSON parameters behind, and the thread's collector, left to
 * itself, let them pile up: catching up after an outage (one transaction after another), the
 * thread's heap grew from 78 to 184 MB over 150,000 clicks and the process's resident memory kept
 * growing, while a full collection after each write held the heap at 78 MB (`bench journal-outage`,
 * docs/cluster.md). One collection per two full transactions (20,000 clicks at the usual memory cap;
 * fewer under a small JOURNAL_MEMORY_CLICKS, whose transactions are smaller) costs a few tens of ms
 * per some seconds of writing.
 */
const RELEASE_TRANSACTIONS = 2;

/**
 * The body of a click writer thread (its entry module passes `open`, which knows the listeners): every
 * batch received is written at once through a write queue; after a failed write, what is held is
 * retried every second (a database outage costs one attempt a second, not one per batch). After each commit the thread reports the journal mark, so
 * the request side can delete journal segments. On "stop" it writes what it holds, closes its
 * connection and says so.
 */
export function serveClickWriter(
  scope: { onmessage: ((e: MessageEvent<ToWriter>) => void) | null; postMessage(m: FromWriter): void },
  open: OpenWriter,
  retryMs = 1000,
): void {
  let opened: Awaited<ReturnType<OpenWriter>> | null = null;
  /** clicks committed since this thread last collected its garbage */
  let sinceCollected = 0;
  let queue: ReturnType<typeof createWriteQueue> | null = null;
  let retry: ReturnType<typeof setInterval> | null = null;
  /** whether the last flush failed: batches then wait for the retry timer instead of each trying at once */
  let failing = false;
  const flush = async () => {
    try {
      const n = await queue!.flush();
      failing = false;
      return n;
    } catch {
      failing = true;
      return 0; // logged by the queue; the batch stays held for the next try
    }
  };
  // messages are handled one after the other: a batch waits until the database is open
  let handling: Promise<void> = Promise.resolve();
  const handle = async (m: ToWriter) => {
    if (m.type === "init") {
      // the thread's own lines before its writer opens, in the service's format and with its node's name
      const early = createLogger(m.config.logLevel, undefined, m.config.logFormat, m.config.nodeName);
      // a database out of reach is waited for (the batches queue up behind this message); any other failure ends the thread
      for (let attempt = 0; !opened && !stopping; attempt++) {
        try {
          opened = await open(m.config);
        } catch (err) {
          if (!isDatabaseUnavailable(err)) {
            early.error(`click writer thread could not open the database: ${(err as Error).message}`);
            process.exit(1); // ends this thread only; the request side then writes on its own thread
          }
          if (attempt === 0)
            early.warn(`click writer thread: the database cannot be reached (${briefError(err)}); trying again every ${retryMs} ms`);
          await Bun.sleep(retryMs);
        }
      }
      if (!opened) return;
      const limit = writeLimit(m.config.journalMemoryClicks);
      queue = createWriteQueue(
        opened.writer,
        opened.log,
        (seq, clicks) => {
          scope.postMessage({ type: "committed", seq, clicks });
          // between two transactions (one flush writes a whole backlog, a transaction at a time)
          sinceCollected += clicks;
          if (sinceCollected >= RELEASE_TRANSACTIONS * limit) {
            sinceCollected = 0;
            Bun.gc(true);
          }
        },
        (clicks) => scope.postMessage({ type: "dropped", clicks }),
        limit,
      );
      retry = setInterval(() => queue!.pending && void flush(), retryMs);
    } else if (m.type === "clicks") {
      if (!queue) return; // stopped before the database could be opened: the batch stays in the journal for the next start
      queue.add(m.batch);
      if (!failing) void flush();
    } else {
      if (retry) clearInterval(retry);
      let flushed = 0;
      // the first waits for a write under way; a second try after a failure splits the batch, so
      // that what can be written is
      for (let attempt = 0; queue && attempt < 2 && (attempt === 0 || queue.pending); attempt++) flushed += await flush();
      await opened?.close();
      scope.postMessage({ type: "stopped", flushed });
    }
  };
  let stopping = false;
  scope.onmessage = (e) => {
    const m = e.data;
    if (m.type === "stop") stopping = true;
    handling = handling.then(() => handle(m));
  };
}
