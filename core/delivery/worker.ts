/**
 * The delivery worker: sends outbox rows (webhooks and Bot API calls) with retries, bounded
 * concurrency per target host, and crash safety (rows claimed but not recorded are re-sent after a
 * restart, or by another node once the claim lapses, with the same delivery id).
 */
import type { Deps } from "../deps";
import { BOT_HOST, claimDue, pruneOutbox, requeueInterrupted, type OutboxRow } from "./outbox";
import { attemptRow, plainBotApi, type Outcome } from "./send-row";
import type { DeliveryRoutes } from "./topics";
import { recordOutcome } from "./record";
import type { DeliveryOutcome } from "../metrics";
import { briefError, createRepeatLog } from "../log";
import { isDatabaseUnavailable } from "../../db/unavailable";

export interface DeliveryWorkerOptions {
  /** attempts in flight per webhook host (host:port); one slow target cannot hold more (default 4) */
  perHost?: number;
  /** Bot API calls in flight (default 8) */
  botConcurrency?: number;
  /** attempts in flight in total (default 64) */
  maxInFlight?: number;
  /** how often (real ms) the queue is checked for due rows (default 250) */
  pollMs?: number;
}

export interface DeliveryWorker {
  /** requeues rows interrupted by a crash (one node), then polls the queue until stop() */
  start(): Promise<void>;
  /** stops polling and waits for attempts in flight to be recorded */
  stop(): Promise<void>;
  /** sends everything due now (by deps.clock), retries due now included, and resolves when none is left */
  drain(): Promise<void>;
}

const PRUNE_EVERY_MS = 3_600_000;

/** An attempt's outcome as counted: a failure is `retry` while attempts remain (as recordOutcome decides), else `failed`. */
function outcomeOf(deps: Deps, row: OutboxRow, outcome: Outcome): DeliveryOutcome {
  if (outcome.type !== "error") return outcome.type;
  return !outcome.permanent && row.attempts + 1 <= deps.config.webhookRetryDelays.length ? "retry" : "failed";
}

/** Sends one claimed row and records its outcome (and the delivery metric) on it. */
async function deliverRow(deps: Deps, routes: DeliveryRoutes, bot: ReturnType<typeof plainBotApi>, row: OutboxRow): Promise<void> {
  const outcome = await attemptRow(deps, routes, bot, row);
  try {
    const recorded = await recordOutcome(deps, routes.topics, row, outcome);
    deps.metrics.deliveries.inc({ kind: row.host === BOT_HOST ? "bot" : "webhook", outcome: outcomeOf(deps, row, outcome) });
    if (!recorded) deps.log.warn(`delivery ${row.deliveryId}: its claim lapsed before the outcome was recorded; another node has the row`);
  } catch (e) {
    // the row stays `sending` and is sent again once its claim lapses (or after a restart)
    deps.log.error(`delivery ${row.deliveryId}: could not record the outcome`, e);
  }
}

/** Prunes the outbox's finished rows at most once every `everyMs` of the clock, whoever asks. */
function pruneEvery(deps: Deps, everyMs: number): () => Promise<void> {
  let last = -Infinity;
  return async () => {
    const now = deps.clock.now().getTime();
    if (now - last <= everyMs) return;
    last = now;
    const pruned = await pruneOutbox(deps);
    if (pruned) deps.log.debug(`outbox: pruned ${pruned} finished rows`);
  };
}

/**
 * Builds (does not start) the worker that sends the outbox, with the topic handlers and the webhook
 * sender it is handed (app/delivery-routes.ts). main.ts starts it and stops it on shutdown.
 */
export function createDeliveryWorker(deps: Deps, routes: DeliveryRoutes, opts: DeliveryWorkerOptions = {}): DeliveryWorker {
  const bot = plainBotApi(deps);
  const perHost = opts.perHost ?? 4;
  const botConcurrency = opts.botConcurrency ?? 8;
  const maxInFlight = opts.maxInFlight ?? 64;
  const pollMs = opts.pollMs ?? 250;
  const inFlight = new Map<number, Promise<void>>();
  const busy = new Map<string, number>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let running = false;
  const prune = pruneEvery(deps, PRUNE_EVERY_MS);

  const keyOf = (row: OutboxRow) => row.host ?? "";
  const capOf = (host: string) => (host === BOT_HOST ? botConcurrency : perHost);

  function dispatch(row: OutboxRow) {
    const host = keyOf(row);
    busy.set(host, (busy.get(host) ?? 0) + 1);
    const job = deliverRow(deps, routes, bot, row).finally(() => {
      const wasFull = inFlight.size >= maxInFlight;
      busy.set(host, busy.get(host)! - 1);
      inFlight.delete(row.id);
      // the freed slot goes to the same host (an index lookup); a full scan only when the total limit held others back
      if (running) setTimeout(() => poll(wasFull ? undefined : host), 0);
    });
    inFlight.set(row.id, job);
  }

  /** Claims as many due rows as the limits allow and starts sending them. */
  async function tick() {
    await prune();
    for (;;) {
      const free = maxInFlight - inFlight.size;
      if (free <= 0) return;
      const full = [...busy].filter(([h, n]) => n >= capOf(h)).map(([h]) => h);
      if (!deps.telegram) full.push(BOT_HOST);
      const taking = new Map<string, number>();
      const limit = Math.max(free * 4, 50);
      let considered = 0;
      let taken = 0;
      const rows = await claimDue(deps, limit, {
        excludeHosts: full,
        take: (row) => {
          considered++;
          const h = keyOf(row);
          if (taken >= free || (busy.get(h) ?? 0) + (taking.get(h) ?? 0) >= capOf(h)) return false;
          taking.set(h, (taking.get(h) ?? 0) + 1);
          taken++;
          return true;
        },
      });
      for (const row of rows) dispatch(row);
      // every pass takes a row or fills a host (excluded next pass), so this ends; stop when nothing more is due
      if (considered < limit) return;
    }
  }

  /** Claims due rows of one host into its free slots. */
  async function refill(host: string) {
    const n = Math.min(capOf(host) - (busy.get(host) ?? 0), maxInFlight - inFlight.size);
    if (n > 0 && (host !== BOT_HOST || deps.telegram)) for (const row of await claimDue(deps, n, { host })) dispatch(row);
  }

  // claims run one at a time (the limits above are counted before each); a poll asked for while one
  // runs is folded into one more full tick after it
  let claiming: Promise<void> | null = null;
  const repeat = createRepeatLog(deps.log);
  let again = false;

  /** A tick from a timer (of one host, or all): only while running; a failure (e.g. a busy database) waits for the next one. */
  function poll(host?: string) {
    if (!running) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = (async () => {
      try {
        if (host === undefined) await tick();
        else await refill(host);
      } catch (e) {
        if (isDatabaseUnavailable(e))
          repeat("warn", "unavailable", `delivery worker: the database cannot be reached (${briefError(e)}); deliveries wait`);
        else deps.log.error("delivery worker: tick failed", e);
      }
    })().finally(() => {
      claiming = null;
      if (again) {
        again = false;
        poll();
      }
    });
  }

  return {
    async start() {
      if (running) return;
      const requeued = await requeueInterrupted(deps);
      if (requeued) deps.log.info(`outbox: ${requeued} interrupted deliveries queued again`);
      running = true;
      timer = setInterval(() => poll(), pollMs);
      poll();
    },
    async stop() {
      running = false;
      if (timer) clearInterval(timer);
      timer = null;
      await claiming;
      await Promise.allSettled([...inFlight.values()]);
    },
    async drain() {
      for (;;) {
        await claiming;
        await tick();
        if (!inFlight.size) return;
        await Promise.race(inFlight.values());
      }
    },
  };
}
