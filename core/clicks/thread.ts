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

/**
 * Clicks packed as they are recorded: the request thread keeps no object per click between hand-overs
 * (thousands of live click objects and their header strings cost the garbage collector more than the
 * packing does), only numbers in typed arrays and each distinct string once.
 */
export class ClickPacker {
  private nums = new Float64Array(3 * 1024);
  private refs = new Uint32Array(4 * 1024);
  private strings: string[] = [];
  private index = new Map<string, number>();
  length = 0;

  private ref(s: string | null): number {
    if (s === null) return 0;
    let i = this.index.get(s);
    if (i === undefined) this.index.set(s, (i = this.strings.push(s)));
    return i;
  }

  add(c: PendingClick): void {
    const i = this.length++;
    if (i * 3 >= this.nums.length) {
      const nums = new Float64Array(this.nums.length * 2);
      nums.set(this.nums);
      this.nums = nums;
      const refs = new Uint32Array(this.refs.length * 2);
      refs.set(this.refs);
      this.refs = refs;
    }
    this.nums[i * 3] = c.linkId;
    this.nums[i * 3 + 1] = c.clickedAt.getTime();
    this.nums[i * 3 + 2] = c.isBot ? 1 : 0;
    this.refs[i * 4] = this.ref(c.ip);
    this.refs[i * 4 + 1] = this.ref(c.userAgent);
    this.refs[i * 4 + 2] = this.ref(c.referer);
    this.refs[i * 4 + 3] = this.ref(c.botName);
  }

  /** The packed clicks so far (copied out), leaving the packer empty. */
  take(): PackedClicks {
    const out = { nums: this.nums.slice(0, this.length * 3), refs: this.refs.slice(0, this.length * 4), strings: this.strings };
    this.strings = [];
    this.index = new Map();
    this.length = 0;
    return out;
  }
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
