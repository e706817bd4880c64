/**
 * The request thread's side of the matcher's thread (match-worker.ts): it reads the trackers' rows
 * and posts them (the whole index when it is needed, the changed trackers as they change), hands
 * posts over and gets their matches back. The thread runs every keyword, query and word form, so no
 * text a user controls can hold up a redirect, the API or the bot.
 *
 * Nothing handed over is lost: a request the thread did not answer because it ended (a crash, or
 * the watchdog ending a thread stuck for WATCHDOG_MS) is sent again to a new thread, which first gets
 * the whole index from the database; after MAX_ATTEMPTS the request fails with an error.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { AsyncDb } from "../../db/async";
import type { Logger } from "../log";
import { MAX_CHANGED, type IndexedTracker, type TrackerRowOf } from "./index-cache";
import type { MatchableTracker, MatchResult } from "./matcher";
import { MATCH_THREAD } from "./match-worker";
import type { PreviewMatches } from "./preview-match";
import { RecentPosts } from "./preview";

/** What the request thread posts to the matcher's thread. */
export type ToMatcher =
  | { op: "build"; rows: TrackerRowOf[] }
  | { op: "overlay"; ids: number[]; rows: TrackerRowOf[] }
  | { op: "match"; id: number; text: string }
  | { op: "preview"; id: number; tracker: MatchableTracker; texts: string[] };

/** A post's matches as the thread answers them; `watchers` only when they changed since its last answer. */
type ThreadMatch = MatchResult<IndexedTracker> & { watchers?: IndexedTracker[] };

export type FromMatcher = { id: number; match: ThreadMatch } | { id: number; preview: PreviewMatches } | { id: number; error: string };

/** A post's matches, with the enabled trackers that watch for their owner's links. */
type PostMatches = MatchResult<IndexedTracker> & { watchers: IndexedTracker[] };

export interface MatchHost {
  /** Matches a post's text against every enabled tracker (in the matcher's thread). */
  match(text: string): Promise<PostMatches>;
  /** Matches one tracker, as it is now, against `texts` (the live preview), within the preview's budget. */
  preview(tracker: MatchableTracker, texts: string[]): Promise<PreviewMatches>;
  /** Changed trackers (their ids) go to the thread's overlay; without ids, the whole index is read again on next use. */
  apply(ids?: number[]): Promise<void>;
  /** The whole index is read again on next use. */
  drop(): void;
  /** The last posts matched on this node, for the live preview of a tracker's settings. */
  readonly recent: RecentPosts;
  /** The over-budget notices this node queued (over-budget.ts): each is looked up in the database once. */
  readonly told: Set<string>;
  /** How many times the thread was started again after it ended. */
  readonly restarts: number;
  /** Ends the thread (requests still waiting fail). */
  close(): void;
}

/** A request sent this many times to threads that all ended fails. */
const MAX_ATTEMPTS = 3;
/** A thread that has not answered a request for this long is ended and started again. */
const WATCHDOG_MS = 30_000;

/** Bun's Worker: unref'd while it holds no request, so an idle thread never keeps a process alive. */
type Thread = Worker & { ref(): void; unref(): void };

interface Job {
  message: ToMatcher & { id: number };
  attempts: number;
  thread: Thread | null;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

/** `db`: the database the trackers are read from (asked at each read: a test may swap it). */
export function createMatchHost(db: () => AsyncDb, log: Logger, entry = MATCH_THREAD): MatchHost {
  let thread: Thread | null = null;
  let closed = false;
  let restarts = 0;
  /** bumped by drop() and by a thread ending: a build read before it is used once, not kept */
  let generation = 0;
  /** the current thread has the whole index (plus the overlay of `changed`) */
  let built = false;
  let loading: Promise<void> | null = null;
  const changed = new Set<number>();
  let watchers: IndexedTracker[] = [];
  let seq = 0;
  const pending = new Map<number, Job>();
  let queue: Promise<void> = Promise.resolve();

  const current = (): Thread => {
    if (thread) return thread;
    const started = new Worker(entry) as Thread;
    started.addEventListener("message", (e: MessageEvent<FromMatcher>) => answered(e.data));
    started.addEventListener("error", (e) => {
      log.error(`matcher thread failed: ${e.message}`);
      ended(started);
    });
    started.addEventListener("close", () => ended(started));
    thread = started;
    return started;
  };

  const forget = () => {
    generation++;
    built = false;
    loading = null;
    changed.clear();
  };

  /** A thread ended: the requests it held go to a new one, which gets the whole index first. */
  function ended(gone: Thread) {
    if (gone !== thread) return;
    thread = null;
    gone.terminate();
    forget();
    watchers = [];
    if (closed) return;
    restarts++;
    const lost = [...pending.values()].filter((job) => job.thread === gone);
    log.warn(`matcher thread ended; started again, ${lost.length} request(s) sent again`);
    for (const job of lost) {
      clearTimeout(job.timer);
      if (job.attempts >= MAX_ATTEMPTS) {
        pending.delete(job.message.id);
        job.reject(new Error(`matching failed: the matcher thread ended ${job.attempts} times on this request`));
      } else void send(job);
    }
  }

  function answered(m: FromMatcher) {
    const job = pending.get(m.id);
    if (!job) return;
    pending.delete(m.id);
    clearTimeout(job.timer);
    if (!pending.size) thread?.unref();
    if ("error" in m) job.reject(new Error(`matching failed: ${m.error}`));
    else if ("match" in m) {
      if (m.match.watchers) watchers = m.match.watchers;
      job.resolve({ ...m.match, watchers });
    } else job.resolve(m.preview);
  }

  /** Posts the whole index to the current thread unless it has it (one read for callers at once). */
  function ensureIndex(): Promise<void> {
    if (built) return Promise.resolve();
    if (!loading) {
      const seen = generation;
      const load = (async () => {
        const { trackers } = db().tables;
        const rows = await db().select().from(trackers).where(eq(trackers.isEnabled, true)).orderBy(trackers.id);
        current().postMessage({ op: "build", rows } satisfies ToMatcher);
        // a change made while it was read may be missing from it: used for the requests waiting, not kept
        if (generation === seen) built = true;
      })().finally(() => {
        if (loading === load) loading = null;
      });
      loading = load;
    }
    return loading;
  }

  async function send(job: Job): Promise<void> {
    try {
      job.attempts++;
      if (job.message.op === "match") await ensureIndex();
      if (closed) throw new Error("the matcher is closed");
      const to = current();
      job.thread = to;
      to.ref();
      to.postMessage(job.message);
      job.timer = setTimeout(() => {
        log.error(`matcher thread did not answer in ${WATCHDOG_MS} ms; ending it`);
        ended(to);
      }, WATCHDOG_MS);
    } catch (e) {
      pending.delete(job.message.id);
      job.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  function request<T>(message: ToMatcher & { id: number }): Promise<T> {
    const answer = new Promise<T>((resolve, reject) => {
      const job: Job = { message, attempts: 0, thread: null, resolve: resolve as (v: unknown) => void, reject };
      pending.set(message.id, job);
      void send(job);
    });
    // a request still waiting when the host closes fails; its caller may be gone by then (the process stopping)
    answer.catch(() => {});
    return answer;
  }

  function drop() {
    forget();
  }

  return {
    recent: new RecentPosts(),
    told: new Set(),
    get restarts() {
      return restarts;
    },
    match: (text) => request<PostMatches>({ op: "match", id: ++seq, text }),
    preview: (tracker, texts) => request<PreviewMatches>({ op: "preview", id: ++seq, tracker, texts }),
    drop,
    apply(ids) {
      const next = queue.then(async () => {
        if (!built || !ids || changed.size + ids.length > MAX_CHANGED) return drop();
        for (const id of ids) changed.add(id);
        const seen = generation;
        try {
          const { trackers } = db().tables;
          const rows = await db()
            .select()
            .from(trackers)
            .where(and(inArray(trackers.id, [...changed]), eq(trackers.isEnabled, true)))
            .orderBy(trackers.id);
          if (generation === seen && thread) thread.postMessage({ op: "overlay", ids: [...changed], rows } satisfies ToMatcher);
        } catch (e) {
          drop(); // read whole on the next post
          throw e;
        }
      });
      queue = next.catch(() => {});
      return next;
    },
    close() {
      closed = true;
      const gone = thread;
      thread = null;
      gone?.terminate();
      for (const job of pending.values()) {
        clearTimeout(job.timer);
        job.reject(new Error("the matcher is closed"));
      }
      pending.clear();
    },
  };
}
