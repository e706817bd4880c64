/**
 * The click writer thread (started by core/clicks/thread.ts): its own dependencies and database
 * connection, and an ordinary recorder that writes every batch it receives at once; its timer retries
 * a batch whose write failed. On "stop" it writes what it holds, closes the database and says so.
 */
import { createDeps } from "../index";
import { createClickRecorder, type ClickRecorder } from "./recorder";
import type { FromWriter, ToWriter } from "./thread";

declare const self: Worker;

let deps: ReturnType<typeof createDeps> | null = null;
let recorder: ClickRecorder | null = null;

self.onmessage = async (e: MessageEvent<ToWriter>) => {
  const m = e.data;
  if (m.type === "init") {
    try {
      deps = createDeps(m.config);
    } catch (e) {
      console.error(`click writer thread could not open the database: ${(e as Error).message}`);
      process.exit(1); // ends this thread only; the recorder then writes on the request thread
    }
    recorder = createClickRecorder(deps);
    recorder.start();
  } else if (m.type === "clicks") {
    recorder!.recordPacked(m.batch);
    try {
      recorder!.flush();
    } catch {
      // logged by the recorder; the batch stays queued and its timer retries it
    }
  } else if (m.type === "stop") {
    const flushed = recorder ? await recorder.stop() : 0;
    deps?.handle.close();
    self.postMessage({ type: "stopped", flushed } satisfies FromWriter);
  }
};
