import type { Deps } from "../deps";
import type { Tx } from "../clicks/hooks";
import type { OutboxRow } from "./outbox";
import { clickWebhookTopic } from "../webhooks/failures";

/** What a topic may add to generic delivery: a check before each attempt and a final-failure hook. */
export interface TopicHandler {
  /** false cancels the row without sending (e.g. the link's webhook was disabled meanwhile) */
  stillWanted?(deps: Deps, row: OutboxRow): boolean;
  /** runs in the transaction that marks the row failed after its last attempt */
  onFinalFailure?(tx: Tx, deps: Deps, row: OutboxRow): void;
}

/** Topic handlers by outbox topic. Topics without one are simply sent and retried. */
export const DELIVERY_TOPICS: Record<string, TopicHandler> = {
  click_webhook: clickWebhookTopic,
};
