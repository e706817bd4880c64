import type { Deps } from "../deps";
import type { AsyncTx } from "../../db/async";
import type { OutboxRow } from "./outbox";
import type { Outcome } from "./send-row";

/** What a topic may add to generic delivery: a check before each attempt and a final-failure hook. */
export interface TopicHandler {
  /** false cancels the row without sending (e.g. the link's webhook was disabled meanwhile) */
  stillWanted?(deps: Deps, row: OutboxRow): Promise<boolean>;
  /** runs in the transaction that marks the row failed after its last attempt */
  onFinalFailure?(tx: AsyncTx, deps: Deps, row: OutboxRow): Promise<void>;
}

/**
 * What the delivery worker is handed by the composition root (app/delivery-routes.ts): the topic
 * handlers by outbox topic (topics without one are simply sent and retried), and how to make one
 * attempt at a webhook row (signing and the address checks belong to the webhooks feature), and
 * where a stored document lives. So delivery knows no feature.
 */
export interface DeliveryRoutes {
  topics: Readonly<Record<string, TopicHandler>>;
  webhook(deps: Deps, row: OutboxRow): Promise<Outcome>;
  /** the bytes of a stored document a bot message carries (secure storage), or null when it was deleted */
  storedDocument(deps: Deps, location: string): Promise<AsyncIterable<Uint8Array> | null>;
}
