import type { Deps } from "../deps";
import type { ClickRow, LinkRow } from "../../db/schema";
import { clickWebhookHook } from "../webhooks/click-hook";
import { rollupClicks } from "../analytics/rollup";

/** The transaction handle a click batch is written in. */
export type Tx = Parameters<Parameters<Deps["db"]["transaction"]>[0]>[0];

/**
 * A stored click as the hooks see it. `kind` is equal for clicks of one batch that every roll-up
 * dimension counts alike (same country, device, browser, os, isBot and botName), so a hook can group
 * them by one number instead of comparing six values per click.
 */
export type HookedClick = { click: ClickRow; link: LinkRow; kind: number };

/**
 * Runs inside the transaction that inserts a batch of clicks, so whatever it writes (roll-ups,
 * queued webhook deliveries) commits or rolls back with the clicks themselves.
 */
export type ClickHook = (tx: Tx, deps: Deps, batch: HookedClick[]) => void;

/** Every feature that reacts to recorded clicks adds its hook here. */
export const CLICK_HOOKS: ClickHook[] = [rollupClicks, clickWebhookHook];

/**
 * Numbers the kinds (HookedClick) of one batch: a country class (below 1024: a country is an ISO
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
export function withKinds(batch: { click: ClickRow; link: LinkRow }[]): HookedClick[] {
  const kinds = new ClickKinds();
  return batch.map(({ click: c, link }) => ({ click: c, link, kind: ClickKinds.of(kinds.country(c.country), kinds.agent(c.device, c.browser, c.os, c.isBot, c.botName)) }));
}

/** Told about a hook that threw while hooks are isolated; rethrowing fails the whole batch after all. */
export type HookFailure = (hook: ClickHook, error: unknown, batch: HookedClick[]) => void;
let isolated: HookFailure | null = null;

export function runClickHooks(tx: Tx, deps: Deps, batch: HookedClick[]): void {
  for (const hook of CLICK_HOOKS) {
    if (!isolated) hook(tx, deps, batch);
    else {
      try {
        tx.transaction((savepoint) => hook(savepoint, deps, batch));
      } catch (e) {
        isolated(hook, e, batch);
      }
    }
  }
}

/**
 * Runs `write` (synchronous) with every click hook in a savepoint of its own: a hook that throws
 * has its writes rolled back and is reported to `onFailure`, and the clicks and the other hooks'
 * work are still written. For the one click the recorder cannot otherwise get past (recorder-failures.ts).
 */
export function withIsolatedClickHooks<T>(onFailure: HookFailure, write: () => T): T {
  const outer = isolated;
  isolated = onFailure;
  try {
    return write();
  } finally {
    isolated = outer;
  }
}
