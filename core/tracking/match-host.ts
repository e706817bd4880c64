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
  return new ThreadHost(db, log, entry);
}

class ThreadHost implements MatchHost {
  readonly recent = new RecentPosts();
  readonly told = new Set<string>();
  restarts = 0;
  private thread: Thread | null = null;
  private closed = false;
  /** bumped by drop() and by a thread ending: a build read before it is used once, not kept */
  private generation = 0;
  /** the current thread has the whole index (plus the overlay of `changed`) */
  private built = false;
  private loading: Promise<void> | null = null;
  private readonly changed = new Set<number>();
  private watchers: IndexedTracker[] = [];
  private seq = 0;
  private readonly pending = new Map<number, Job>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: () => AsyncDb,
    private readonly log: Logger,
    private readonly entry: string,
  ) {}

  match(text: string): Promise<PostMatches> {
    return this.request<PostMatches>({ op: "match", id: ++this.seq, text });
  }

  preview(tracker: MatchableTracker, texts: string[]): Promise<PreviewMatches> {
    return this.request<PreviewMatches>({ op: "preview", id: ++this.seq, tracker, texts });
  }

  drop(): void {
    this.generation++;
    this.built = false;
    this.loading = null;
    this.changed.clear();
  }

  apply(ids?: number[]): Promise<void> {
    const next = this.queue.then(async () => {
      if (!this.built || !ids || this.changed.size + ids.length > MAX_CHANGED) return this.drop();
      for (const id of ids) this.changed.add(id);
      const seen = this.generation;
      try {
        const { trackers } = this.db().tables;
        const rows = await this.db()
          .select()
          .from(trackers)
          .where(and(inArray(trackers.id, [...this.changed]), eq(trackers.isEnabled, true)))
          .orderBy(trackers.id);
        if (this.generation === seen && this.thread)
          this.thread.postMessage({ op: "overlay", ids: [...this.changed], rows } satisfies ToMatcher);
      } catch (e) {
        this.drop(); // read whole on the next post
        throw e;
      }
    });
    this.queue = next.catch(() => {});
    return next;
  }

  close(): void {
    this.closed = true;
    const gone = this.thread;
    this.thread = null;
    gone?.terminate();
    for (const job of this.pending.values()) {
      clearTimeout(job.timer);
      job.reject(new Error("the matcher is closed"));
    }
    this.pending.clear();
  }

  private current(): Thread {
    if (this.thread) return this.thread;
    const started = new Worker(this.entry) as Thread;
    started.addEventListener("message", (e: MessageEvent<FromMatcher>) => this.answered(e.data));
    started.addEventListener("error", (e) => {
      this.log.error(`matcher thread failed: ${e.message}`);
      this.ended(started);
    });
    started.addEventListener("close", () => this.ended(started));
    this.thread = started;
    return started;
  }

  /** A thread ended: the requests it held go to a new one, which gets the whole index first. */
  private ended(gone: Thread): void {
    if (gone !== this.thread) return;
    this.thread = null;
    gone.terminate();
    this.drop();
    this.watchers = [];
    if (this.closed) return;
    this.restarts++;
    const lost = [...this.pending.values()].filter((job) => job.thread === gone);
    this.log.warn(`matcher thread ended; started again, ${lost.length} request(s) sent again`);
    for (const job of lost) {
      clearTimeout(job.timer);
      if (job.attempts >= MAX_ATTEMPTS) {
        this.pending.delete(job.message.id);
        job.reject(new Error(`matching failed: the matcher thread ended ${job.attempts} times on this request`));
      } else void this.send(job);
    }
  }

  private answered(m: FromMatcher): void {
    const job = this.pending.get(m.id);
    if (!job) return;
    this.pending.delete(m.id);
    clearTimeout(job.timer);
    if (!this.pending.size) this.thread?.unref();
    if ("error" in m) job.reject(new Error(`matching failed: ${m.error}`));
    else if ("match" in m) {
      if (m.match.watchers) this.watchers = m.match.watchers;
      job.resolve({ ...m.match, watchers: this.watchers });
    } else job.resolve(m.preview);
  }

  /** Posts the whole index to the current thread unless it has it (one read for callers at once). */
  private ensureIndex(): Promise<void> {
    if (this.built) return Promise.resolve();
    if (!this.loading) {
      const seen = this.generation;
      const load = (async () => {
        const { trackers } = this.db().tables;
        const rows = await this.db().select().from(trackers).where(eq(trackers.isEnabled, true)).orderBy(trackers.id);
        this.current().postMessage({ op: "build", rows } satisfies ToMatcher);
        // a change made while it was read may be missing from it: used for the requests waiting, not kept
        if (this.generation === seen) this.built = true;
      })().finally(() => {
        if (this.loading === load) this.loading = null;
      });
      this.loading = load;
    }
    return this.loading;
  }

  private async send(job: Job): Promise<void> {
    try {
      job.attempts++;
      if (job.message.op === "match") await this.ensureIndex();
      if (this.closed) throw new Error("the matcher is closed");
      const to = this.current();
      job.thread = to;
      to.ref();
      to.postMessage(job.message);
      job.timer = setTimeout(() => {
        this.log.error(`matcher thread did not answer in ${WATCHDOG_MS} ms; ending it`);
        this.ended(to);
      }, WATCHDOG_MS);
    } catch (e) {
      this.pending.delete(job.message.id);
      job.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }

  private request<T>(message: ToMatcher & { id: number }): Promise<T> {
    const answer = new Promise<T>((resolve, reject) => {
      const job: Job = { message, attempts: 0, thread: null, resolve: resolve as (v: unknown) => void, reject };
      this.pending.set(message.id, job);
      void this.send(job);
    });
    // a request still waiting when the host closes fails; its caller may be gone by then (the process stopping)
    answer.catch(() => {});
    return answer;
  }
}
