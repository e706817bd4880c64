import type { Deps } from "../deps";
import type { ClickRow, LinkRow } from "../../db/schema";
import type { Tx } from "../../db/transaction";
import type { Db } from "../../db/client";
import { transaction, type AsyncTx } from "../../db/async";

/**
 * A stored click as the listeners see it. `kind` is equal for clicks of one batch that every roll-up
 * dimension counts alike (same country, device, browser, os, isBot and botName), so a listener can
 * group them by one number instead of comparing six values per click.
 */
export type StoredClick = { click: ClickRow; link: LinkRow; kind: number };

/**
 * Runs inside the transaction that inserts a batch of clicks, so whatever it writes (roll-ups,
 * queued webhook deliveries) commits or rolls back with the clicks themselves. The features that
 * react to stored clicks are listed in one table by the composition root (app/click-listeners.ts)
 * and handed to the writer, so this mechanism knows none of them.
 */
/**
 * What a click writer and its listeners work with: the database, the clock and the address lookup,
 * nothing else of the service (the writer thread opens only these).
 */
export type ClickWriterDeps = Pick<Deps, "asyncDb" | "clock" | "geo">;

/** The click writer's dependencies on SQLite: those, plus the synchronous handle of its own connection. */
export type SqliteWriterDeps = ClickWriterDeps & { db: Db };

export type ClickListener = ((tx: Tx, deps: SqliteWriterDeps, batch: StoredClick[]) => void) & {
  /**
   * The same work in cluster mode, inside the batch's PostgreSQL transaction. A listener without it
   * cannot run there: the PostgreSQL click writer refuses to start with it.
   */
  postgres?: PgClickListener;
};

/** A click listener's PostgreSQL form (see ClickListener). */
type PgClickListener = (tx: AsyncTx, deps: ClickWriterDeps, batch: StoredClick[]) => Promise<void>;

/**
 * Numbers the kinds (StoredClick) of one batch: a country class (below 1024: a country is an ISO
 * alpha-2 code or null, so at most 677 of them) and an agent class (device, browser, os, isBot,
 * botName; a missing value counts as '', as in the roll-up's dimValue) make the kind. The writer
 * asks once per distinct address and agent; withKinds once per row.
 */
export class ClickKinds {
  private countries = new Map<string | null, number>();
  private agents = new Map<string, number>();

  country(country: string | null): number {
    let c = this.countries.get(country);
    if (c === undefined) this.countries.set(country, (c = this.countries.size));
    return c;
  }

  agent(device: string | null, browser: string | null, os: string | null, isBot: boolean, botName: string | null): number {
    const key = `${device ?? ""}\u0000${browser ?? ""}\u0000${os ?? ""}\u0000${isBot}\u0000${botName ?? ""}`;
    let a = this.agents.get(key);
    if (a === undefined) this.agents.set(key, (a = this.agents.size));
    return a;
  }

  static of(countryClass: number, agentClass: number): number {
    return agentClass * 1024 + countryClass;
  }
}

/** Clicks with their `kind`, for callers that have stored rows rather than the writer's packed batch. */
export function withKinds(batch: { click: ClickRow; link: LinkRow }[]): StoredClick[] {
  const kinds = new ClickKinds();
  return batch.map(({ click: c, link }) => ({ click: c, link, kind: ClickKinds.of(kinds.country(c.country), kinds.agent(c.device, c.browser, c.os, c.isBot, c.botName)) }));
}

/** Told about a listener that threw while listeners are isolated; rethrowing fails the whole batch after all. */
export type ListenerFailure = (listener: ClickListener, error: unknown, batch: StoredClick[]) => void;

/**
 * Runs each listener on a stored batch, in order, inside `tx`. With `isolate`, each runs in a
 * savepoint of its own: one that throws has its writes rolled back and is reported there, and the
 * clicks and the other listeners' work are kept (for the one click the writer cannot otherwise get
 * past, core/clicks/salvage.ts).
 */
export function runClickListeners(listeners: readonly ClickListener[], tx: Tx, deps: SqliteWriterDeps, batch: StoredClick[], isolate?: ListenerFailure): void {
  for (const listener of listeners) {
    if (!isolate) listener(tx, deps, batch);
    else {
      try {
        tx.transaction((savepoint) => listener(savepoint, deps, batch));
      } catch (e) {
        isolate(listener, e, batch);
      }
    }
  }
}

/** runClickListeners on PostgreSQL: each listener's `postgres` form in order, in savepoints when isolated. */
export async function runClickListenersPg(listeners: readonly ClickListener[], tx: AsyncTx, deps: ClickWriterDeps, batch: StoredClick[], isolate?: ListenerFailure): Promise<void> {
  for (const listener of listeners) {
    const run = listener.postgres!;
    if (!isolate) await run(tx, deps, batch);
    else {
      try {
        await transaction(tx, (savepoint) => run(savepoint, deps, batch));
      } catch (e) {
        isolate(listener, e, batch);
      }
    }
  }
}
