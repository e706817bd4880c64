import type { Deps } from "../deps";
import type { ClickRow, LinkRow } from "../../db/schema";
import { clickWebhookHook } from "../webhooks/click-hook";
import { rollupClicks } from "../analytics/rollup";

/** The transaction handle a click batch is written in. */
export type Tx = Parameters<Parameters<Deps["db"]["transaction"]>[0]>[0];

/**
 * Runs inside the transaction that inserts a batch of clicks, so whatever it writes (roll-ups,
 * queued webhook deliveries) commits or rolls back with the clicks themselves.
 */
export type ClickHook = (tx: Tx, deps: Deps, batch: { click: ClickRow; link: LinkRow }[]) => void;

/** Every feature that reacts to recorded clicks adds its hook here. */
export const CLICK_HOOKS: ClickHook[] = [rollupClicks, clickWebhookHook];

export function runClickHooks(tx: Tx, deps: Deps, batch: { click: ClickRow; link: LinkRow }[]): void {
  for (const hook of CLICK_HOOKS) hook(tx, deps, batch);
}
