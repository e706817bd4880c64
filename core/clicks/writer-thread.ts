import type { Config } from "../../config";
import type { Logger } from "../log";
import type { ClickWriter } from "./writer";
import type { FromWriter, ToWriter } from "./thread";
import { createWriteQueue } from "./write-queue";

/** What a writer thread opens for itself from the configuration: a writer on its own connection. */
export type OpenWriter = (config: Config) => Promise<{ writer: ClickWriter; log: Logger; close(): Promise<void> | void }>;

/**
 * The body of a click writer thread (its entry module passes `open`, which knows the listeners): every
 * batch received is written at once through a write queue; a batch whose write failed is retried
 * every second and with the next batch. After each commit the thread reports the journal mark, so
 * the request side can delete journal segments. On "stop" it writes what it holds, closes its
 * connection and says so.
 */
export function serveClickWriter(scope: { onmessage: ((e: MessageEvent<ToWriter>) => void) | null; postMessage(m: FromWriter): void }, open: OpenWriter, retryMs = 1000): void {
  let opened: Awaited<ReturnType<OpenWriter>> | null = null;
  let queue: ReturnType<typeof createWriteQueue> | null = null;
  let retry: ReturnType<typeof setInterval> | null = null;
  const flush = async () => {
    try {
      return await queue!.flush();
    } catch {
      return 0; // logged by the queue; the batch stays held for the next try
    }
  };
  // messages are handled one after the other: a batch waits until the database is open
  let handling: Promise<void> = Promise.resolve();
  const handle = async (m: ToWriter) => {
    if (m.type === "init") {
      try {
        opened = await open(m.config);
      } catch (err) {
        console.error(`click writer thread could not open the database: ${(err as Error).message}`);
        process.exit(1); // ends this thread only; the request side then writes on its own thread
      }
      queue = createWriteQueue(opened.writer, opened.log, (seq) => scope.postMessage({ type: "committed", seq }));
      retry = setInterval(() => queue!.pending && void flush(), retryMs);
    } else if (m.type === "clicks") {
      queue!.add(m.batch);
      void flush();
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
  scope.onmessage = (e) => {
    const m = e.data;
    handling = handling.then(() => handle(m));
  };
}
