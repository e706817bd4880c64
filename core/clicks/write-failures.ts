import type { Logger } from "../log";
import type { ListenerFailure } from "./listeners";
import type { JournalClick } from "./packed";
import { isDatabaseUnavailable } from "../../db/unavailable";

/**
 * SQLite conditions that pass by themselves (another writer holds the lock, the disk is full or
 * failing for a moment, memory): a batch that meets one is retried whole, never split.
 */
const TRANSIENT = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|NOMEM|CANTOPEN|READONLY|PROTOCOL|INTERRUPT)/;
/**
 * PostgreSQL's conditions that pass by themselves besides an unreachable database: serialization
 * failure and deadlock (two nodes writing the same links' counters), disk full, out of memory.
 */
const TRANSIENT_PG = /^(40001|40P01|53\d\d\d)$/;

/**
 * Whether a failed batch write should simply be retried later with the batch intact: the conditions
 * above, and every failure to reach the database (db/unavailable.ts), however long it lasts.
 */
export function isTransientWriteError(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  if (typeof code === "string" && TRANSIENT.test(code)) return true;
  if (isDatabaseUnavailable(e)) return true;
  // another node took this node's name: nothing is written or dropped; the clicks stay in the journal
  if (isFenced(e)) return true;
  // drizzle wraps the driver's error: the PostgreSQL one is its cause
  for (let err = e as { cause?: unknown; errno?: unknown } | undefined, depth = 0; err && depth < 3; err = err.cause as typeof err, depth++)
    if (typeof err.errno === "string" && TRANSIENT_PG.test(err.errno)) return true;
  return false;
}

/** A writer's mark refused: the name was taken by another journal or a later start. Never retried away. */
export class NodeNameFencedError extends Error {
  readonly fenced = true;
  constructor(journal: string) {
    super(`${journal} is held by another node now: this node no longer writes clicks (they stay in its journal)`);
  }
}

const isFenced = (e: unknown): boolean => (e as { fenced?: unknown } | null)?.fenced === true;

export interface Salvage {
  /** clicks written (every one of them is in the clicks table and the counters) */
  written: number;
  /** clicks not tried or not written because of a transient error, in their order: queue them again */
  retry: JournalClick[];
  /** that transient error, when there was one */
  error?: unknown;
}

/**
 * Gets past a batch whose write failed twice for a reason that is not transient, e.g. a listener
 * that always throws for one click: the batch is bisected, so every part that writes is written
 * whole (with all listeners, in the original order), down to the single clicks that still fail. Such
 * a click is written once more with its listeners isolated (each in a savepoint): the listener that
 * throws is skipped for that click alone, with a log line naming it, the link and the click; the
 * click, its counters and the other listeners' work are kept. A click that cannot be written even so
 * (its own row fails, not a listener) is logged in full, so an operator can replay it. A transient error met
 * on the way stops the salvage: what is left goes back to the queue for a whole retry.
 */
export async function salvageBatch(
  log: Logger,
  batch: JournalClick[],
  write: (clicks: JournalClick[], isolate?: ListenerFailure) => Promise<void>,
): Promise<Salvage> {
  const out: Salvage = { written: 0, retry: [] };
  /** false (the part goes back to the queue) after a transient error */
  const transient = (part: JournalClick[], e: unknown) => {
    if (out.error === undefined && !isTransientWriteError(e)) return false;
    out.error ??= e;
    out.retry.push(...part);
    return true;
  };
  const attempt = async (part: JournalClick[]) => {
    if (out.error !== undefined) return void out.retry.push(...part);
    try {
      await write(part);
      out.written += part.length;
    } catch (e) {
      if (!transient(part, e)) await split(part);
    }
  };
  const split = async (part: JournalClick[]) => {
    if (part.length === 1) return alone(part[0]!);
    const mid = part.length >> 1;
    await attempt(part.slice(0, mid));
    await attempt(part.slice(mid));
  };
  const alone = async (click: JournalClick) => {
    try {
      await write([click], (listener, e, rows) => {
        if (isTransientWriteError(e)) throw e;
        const ids = rows.map((r) => r.click.id).join(", ");
        log.error(
          `click writer: click listener ${listener.name || "(anonymous)"} keeps failing for click ${ids} on link ${click.linkId}; that click is written without this listener`,
          e,
        );
      });
      out.written++;
    } catch (e) {
      if (!transient([click], e))
        log.error(
          `click writer: a click on link ${click.linkId} cannot be written, even without its listeners; not written, its data: ${JSON.stringify(click)}`,
          e,
        );
    }
  };
  await split(batch);
  return out;
}
