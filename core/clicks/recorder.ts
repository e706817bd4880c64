import { eq, inArray, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { clicks, clickVisitors, links, type ClickRow, type LinkRow, type NewClick } from "../../db/schema";
import { sha256 } from "../random";
import { deviceOf, geoOf } from "./enrich";
import { runClickHooks, type Tx } from "./hooks";

/** What the redirect knows about a click; the rest (geo, device, uniqueness) is worked out when flushing. */
export interface PendingClick {
  linkId: number;
  clickedAt: Date;
  ip: string | null;
  userAgent: string | null;
  referer: string | null;
  isBot: boolean;
  botName: string | null;
}

export const UNIQUE_WINDOW_MS = 24 * 60 * 60 * 1000;
const INSERT_CHUNK = 400;

export interface ClickRecorder {
  /** Queues a click; never touches the database on the caller's path. */
  record(click: PendingClick): void;
  /** Writes every queued click in one transaction (with the click hooks); returns how many. */
  flush(): number;
  /** Flushes every `intervalMs` until stopped. */
  start(): void;
  /** Stops the timer and flushes what is queued (graceful shutdown). */
  stop(): number;
  readonly pending: number;
}

/**
 * An in-memory batch of clicks and its flusher. A batch is written in one transaction: the clicks,
 * the visitor rows that decide `is_unique`, the counters on the links, and every CLICK_HOOK.
 */
export function createClickRecorder(deps: Deps, opts: { intervalMs?: number; maxBatch?: number } = {}): ClickRecorder {
  const intervalMs = opts.intervalMs ?? 200;
  const maxBatch = opts.maxBatch ?? 2000;
  let queue: PendingClick[] = [];
  let timer: ReturnType<typeof setInterval> | null = null;
  let soon: ReturnType<typeof setTimeout> | null = null;

  function flush(): number {
    if (!queue.length) return 0;
    const batch = queue;
    queue = [];
    try {
      const rows = batch.map((c) => enrich(deps, c));
      deps.db.transaction((tx) => writeBatch(tx, deps, rows));
      return batch.length;
    } catch (e) {
      if (/closed/i.test((e as Error).message)) {
        deps.log.error(`click recorder: database closed, ${batch.length} clicks not written`);
        stopTimer();
        return 0;
      }
      queue = batch.concat(queue); // keep them for the next flush
      deps.log.error(`click recorder: flush of ${batch.length} clicks failed, will retry`, e);
      throw e;
    }
  }
  const safeFlush = () => {
    soon = null;
    try {
      flush();
    } catch {
      /* logged; retried on the next tick */
    }
  };
  function stopTimer() {
    if (timer) clearInterval(timer);
    if (soon) clearTimeout(soon);
    timer = soon = null;
  }

  return {
    record(click) {
      queue.push(click);
      if (queue.length >= maxBatch && !soon) soon = setTimeout(safeFlush, 0);
    },
    flush,
    start() {
      if (timer) return;
      timer = setInterval(safeFlush, intervalMs);
      timer.unref?.();
    },
    stop() {
      stopTimer();
      return flush();
    },
    get pending() {
      return queue.length;
    },
  };
}

function enrich(deps: Deps, c: PendingClick): NewClick & { visitorHash: string } {
  const geo = geoOf(deps.config.geoipDb, c.ip);
  const dev = deviceOf(c.userAgent, c.isBot);
  return {
    linkId: c.linkId,
    clickedAt: c.clickedAt,
    ip: c.ip,
    country: geo.country,
    city: geo.city,
    device: dev.device,
    browser: dev.browser,
    os: dev.os,
    referer: c.referer?.slice(0, 2048) ?? null,
    userAgent: c.userAgent?.slice(0, 1024) ?? null,
    isBot: c.isBot,
    botName: c.botName,
    isUnique: false,
    visitorHash: sha256(`${c.ip ?? ""}\n${c.userAgent ?? ""}`),
  };
}

function writeBatch(tx: Tx, deps: Deps, rows: (NewClick & { visitorHash: string })[]) {
  const linkIds = [...new Set(rows.map((r) => r.linkId))];
  const alive = new Set(tx.select({ id: links.id }).from(links).where(inArray(links.id, linkIds)).all().map((r) => r.id));
  const kept = rows.filter((r) => alive.has(r.linkId)); // clicks of links deleted meanwhile are dropped
  const lastUnique = new Map<string, number>();
  for (const r of kept) {
    if (r.isBot) continue;
    const key = `${r.linkId}:${r.visitorHash}`;
    let last = lastUnique.get(key);
    if (last === undefined) {
      const row = tx.select({ at: clickVisitors.lastUniqueAt }).from(clickVisitors)
        .where(sql`${clickVisitors.linkId} = ${r.linkId} and ${clickVisitors.visitorHash} = ${r.visitorHash}`).get();
      last = row ? row.at.getTime() : -Infinity;
    }
    if (r.clickedAt!.getTime() - last >= UNIQUE_WINDOW_MS) {
      r.isUnique = true;
      last = r.clickedAt!.getTime();
      tx.insert(clickVisitors).values({ linkId: r.linkId, visitorHash: r.visitorHash, lastUniqueAt: r.clickedAt! })
        .onConflictDoUpdate({ target: [clickVisitors.linkId, clickVisitors.visitorHash], set: { lastUniqueAt: r.clickedAt! } }).run();
    }
    lastUnique.set(key, last);
  }
  const inserted: ClickRow[] = [];
  for (let i = 0; i < kept.length; i += INSERT_CHUNK)
    inserted.push(...tx.insert(clicks).values(kept.slice(i, i + INSERT_CHUNK).map(({ visitorHash: _, ...c }) => c)).returning().all());
  const counts = new Map<number, { total: number; unique: number; bots: number }>();
  for (const c of inserted) {
    const n = counts.get(c.linkId) ?? { total: 0, unique: 0, bots: 0 };
    n.total++;
    if (c.isUnique) n.unique++;
    if (c.isBot) n.bots++;
    counts.set(c.linkId, n);
  }
  for (const [id, n] of counts)
    tx.update(links).set({
      totalClicks: sql`${links.totalClicks} + ${n.total}`,
      uniqueClicks: sql`${links.uniqueClicks} + ${n.unique}`,
      botClicks: sql`${links.botClicks} + ${n.bots}`,
    }).where(eq(links.id, id)).run();
  if (!inserted.length) return;
  const linkRows = new Map<number, LinkRow>(tx.select().from(links).where(inArray(links.id, [...counts.keys()])).all().map((l) => [l.id, l]));
  runClickHooks(tx, deps, inserted.map((click) => ({ click, link: linkRows.get(click.linkId)! })));
}

const recorders = new WeakMap<Deps, ClickRecorder>();

/**
 * The click recorder of this set of dependencies (one per running service): the visitor routes
 * record into it, main.ts starts it and stops it (flushing) on shutdown, tests flush it.
 */
export function clickRecorderFor(deps: Deps): ClickRecorder {
  let r = recorders.get(deps);
  if (!r) recorders.set(deps, (r = createClickRecorder(deps)));
  return r;
}
