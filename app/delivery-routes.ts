import type { Deps } from "../core/deps";
import { createDeliveryWorker, type DeliveryWorker, type DeliveryWorkerOptions } from "../core/delivery/worker";
import type { DeliveryRoutes } from "../core/delivery/topics";
import { clickWebhookTopic } from "../core/webhooks/failures";
import { attemptWebhook } from "../core/webhooks/deliver";
import { FILE_STORAGE_DRIVERS } from "../config";
import { locationOf, parseLocation } from "../core/storage";
import { CHAT_TOPICS, intoOwnedChat } from "../core/channels/chat-delivery";
import { POSTBACK_SENDERS } from "../core/conversions/routes";

/**
 * A stored document's bytes, streamed from wherever the file storage keeps them. A file moved by
 * `storage migrate` after the message was queued keeps its key in its new driver, so that is tried too.
 */
async function storedDocument(deps: Deps, location: string): Promise<AsyncIterable<Uint8Array> | null> {
  const { key } = parseLocation(location);
  let stored = await deps.storage.open(location);
  for (const driver of FILE_STORAGE_DRIVERS) {
    if (stored || locationOf(driver, key) === location) continue;
    stored = await deps.storage.open(locationOf(driver, key)).catch(() => null); // that driver may not be configured here
  }
  if (!stored) return null;
  const body = stored.body();
  return body instanceof Blob ? body.stream() : body;
}

/**
 * What the outbox delivers and how, listed where the app is wired: webhook rows are sent by the
 * webhooks feature, click webhooks count their final failures on the link, and documents queued for
 * the bot are read from secure storage; messages into a chat go only while their account still runs
 * it. core/delivery itself
 * imports no feature.
 */
const DELIVERY_ROUTES: DeliveryRoutes = {
  topics: { click_webhook: clickWebhookTopic, ...Object.fromEntries(CHAT_TOPICS.map((topic) => [topic, intoOwnedChat])) },
  webhook: (deps, row) => (POSTBACK_SENDERS[row.topic] ?? attemptWebhook)(deps, row),
  storedDocument,
};

/** The service's outbox worker: createDeliveryWorker with DELIVERY_ROUTES (not started). */
export function deliveryWorker(deps: Deps, opts: DeliveryWorkerOptions = {}): DeliveryWorker {
  return createDeliveryWorker(deps, DELIVERY_ROUTES, opts);
}
