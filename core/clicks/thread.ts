import type { Config } from "../../config";
import type { Logger } from "../log";
import type { PackedClicks } from "./packed";

/** Messages between the request side and its writer thread (core/clicks/writer-thread.ts). */
export type ToWriter = { type: "init"; config: Config } | { type: "clicks"; batch: PackedClicks } | { type: "stop" };
export type FromWriter =
  | { type: "committed"; seq: number; clicks: number }
  | { type: "dropped"; clicks: number }
  | { type: "stopped"; flushed: number };

/** What the request side hears from its writer: each committed batch (its journal mark, its size) and clicks given up on. */
export interface WriterEvents {
  committed(seq: number, clicks: number): void;
  dropped(clicks: number): void;
}

/** The request side's handle on a writer thread. */
export interface ClickThread {
  /** Hands a batch over (the thread writes it in one transaction, retrying as the write queue does); false when the thread is gone. */
  write(batch: PackedClicks): boolean;
  /** Whether the thread has ended (crashed, or closed). */
  readonly gone: boolean;
  /** Lets the thread write what it holds, closes its connection and ends it; resolves to that last count. */
  close(): Promise<number>;
}

/**
 * Starts the writer thread from `entry` (a module that calls serveClickWriter with the composition
 * root's listeners, app/click-writer-thread.ts in the service): its own connection to the same
 * database, so the request thread only queues clicks and posts them every batch interval.
 * `events` hears the journal mark after each batch the thread committed, and the clicks it gave up on.
 */
export function startClickThread(entry: string, config: Config, log: Logger, events: WriterEvents): ClickThread {
  const worker = new Worker(entry);
  let exited = false;
  const done = new Promise<number>((resolve) => {
    worker.addEventListener("message", (e: MessageEvent<FromWriter>) => {
      if (e.data.type === "committed") events.committed(e.data.seq, e.data.clicks);
      else if (e.data.type === "dropped") events.dropped(e.data.clicks);
      else resolve(e.data.flushed);
    });
    worker.addEventListener("error", (e) => log.error(`click writer thread failed: ${e.message}`));
    worker.addEventListener("close", () => {
      exited = true;
      resolve(0);
    });
  });
  const post = (m: ToWriter, transfer: Transferable[] = []) => worker.postMessage(m, transfer);
  post({ type: "init", config });
  return {
    write(batch) {
      if (exited) return false;
      post({ type: "clicks", batch }, [batch.nums.buffer, batch.refs.buffer]);
      return true;
    },
    get gone() {
      return exited;
    },
    async close() {
      if (!exited) post({ type: "stop" });
      const flushed = await done;
      worker.terminate();
      return flushed;
    },
  };
}
