import type { Deps } from "../deps";
import type { PackedClicks } from "./packed";

/** Messages between the recorder and its writer thread (core/clicks/writer-worker.ts). */
export type ToWriter = { type: "init"; config: Deps["config"] } | { type: "clicks"; batch: PackedClicks } | { type: "stop" };
export type FromWriter = { type: "stopped"; flushed: number };

/** The recorder's side of a writer thread. */
export interface ClickThread {
  /** Hands a batch over (the thread writes it in one transaction, retrying as the recorder does); false when the thread is gone. */
  write(batch: PackedClicks): boolean;
  /** Lets the thread write what it holds, closes its connection and ends it; resolves to that last count. */
  close(): Promise<number>;
}

/**
 * Starts a worker thread with its own connection to the same database that writes click batches
 * exactly as the recorder's `flush()` does (enrichment, uniqueness, counters, CLICK_HOOKS), so the
 * request thread only queues clicks and posts them every batch interval.
 */
export function startClickThread(deps: Deps): ClickThread {
  const worker = new Worker(new URL("./writer-worker.ts", import.meta.url).href);
  let exited = false;
  const done = new Promise<number>((resolve) => {
    worker.addEventListener("message", (e: MessageEvent<FromWriter>) => {
      if (e.data.type === "stopped") resolve(e.data.flushed);
    });
    worker.addEventListener("error", (e) => deps.log.error(`click writer thread failed: ${e.message}`));
    worker.addEventListener("close", () => {
      exited = true;
      resolve(0);
    });
  });
  const post = (m: ToWriter, transfer: Transferable[] = []) => worker.postMessage(m, transfer);
  post({ type: "init", config: deps.config });
  return {
    write(batch) {
      if (exited) return false;
      post({ type: "clicks", batch }, [batch.nums.buffer, batch.refs.buffer]);
      return true;
    },
    async close() {
      if (!exited) post({ type: "stop" });
      const flushed = await done;
      worker.terminate();
      return flushed;
    },
  };
}
