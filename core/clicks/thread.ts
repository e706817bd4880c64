import type { Deps } from "../deps";
import type { PendingClick } from "./batch";

/** Messages between the recorder and its writer thread (core/clicks/writer-worker.ts). */
export type ToWriter = { type: "init"; config: Deps["config"] } | { type: "clicks"; batch: PackedClicks } | { type: "stop" };
export type FromWriter = { type: "stopped"; flushed: number };

/**
 * A batch as two typed arrays (moved, not copied, to the thread) and a table of its distinct strings
 * (traffic repeats the same user agents and addresses): posting the click objects would cost the
 * request thread a structured clone of each.
 */
export interface PackedClicks {
  /** per click: link id, clicked-at ms, is-bot (0/1) */
  nums: Float64Array;
  /** per click: ip, user agent, referer, bot name, each as 1 + its index in `strings` (0 = null) */
  refs: Uint32Array;
  strings: string[];
}

export function packClicks(clicks: PendingClick[]): PackedClicks {
  const nums = new Float64Array(clicks.length * 3);
  const refs = new Uint32Array(clicks.length * 4);
  const strings: string[] = [];
  const index = new Map<string, number>();
  const ref = (s: string | null) => {
    if (s === null) return 0;
    let i = index.get(s);
    if (i === undefined) index.set(s, (i = strings.push(s)));
    return i;
  };
  for (let i = 0; i < clicks.length; i++) {
    const c = clicks[i]!;
    nums[i * 3] = c.linkId;
    nums[i * 3 + 1] = c.clickedAt.getTime();
    nums[i * 3 + 2] = c.isBot ? 1 : 0;
    refs[i * 4] = ref(c.ip);
    refs[i * 4 + 1] = ref(c.userAgent);
    refs[i * 4 + 2] = ref(c.referer);
    refs[i * 4 + 3] = ref(c.botName);
  }
  return { nums, refs, strings };
}

export function unpackClicks({ nums, refs, strings }: PackedClicks): PendingClick[] {
  const str = (i: number) => (i === 0 ? null : strings[i - 1]!);
  return Array.from({ length: nums.length / 3 }, (_, i) => ({
    linkId: nums[i * 3]!,
    clickedAt: new Date(nums[i * 3 + 1]!),
    isBot: nums[i * 3 + 2] === 1,
    ip: str(refs[i * 4]!),
    userAgent: str(refs[i * 4 + 1]!),
    referer: str(refs[i * 4 + 2]!),
    botName: str(refs[i * 4 + 3]!),
  }));
}

/** The recorder's side of a writer thread. */
export interface ClickThread {
  /** Hands a batch over (the thread writes it in one transaction, retrying as the recorder does); false when the thread is gone. */
  write(clicks: PendingClick[]): boolean;
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
    write(clicks) {
      if (exited) return false;
      const batch = packClicks(clicks);
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
