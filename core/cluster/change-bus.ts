/**
 * Change bus: tells every node that something changed (a link or secure link edited) so each drops
 * what it cached. Every subscriber gets each message, on the publishing node too.
 */
interface ChangeHandlers {
  /** one message published on the topic */
  onMessage(payload: string): void;
  /** messages may have been missed (the node lost its connection): drop everything cached */
  onGap?(): void;
}

export interface ChangeBus {
  /** Sends `payload` (at most 7999 bytes) to every subscriber of `topic` on every node. */
  publish(topic: string, payload: string): Promise<void>;
  /** Subscribes; resolves once messages are being received, with a function that unsubscribes. */
  subscribe(topic: string, handlers: ChangeHandlers): Promise<() => Promise<void>>;
}

class ChangeBusError extends Error {}

const TOPIC = /^[a-z][a-z0-9_]{0,39}$/;
const MAX_PAYLOAD_BYTES = 7999;

/** Checks a topic and payload the same way on every implementation. */
export function checkMessage(topic: string, payload?: string): void {
  if (!TOPIC.test(topic)) throw new ChangeBusError(`topic "${topic}" must be lower-case letters, digits and _ (at most 40)`);
  if (payload !== undefined && Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES)
    throw new ChangeBusError(`payload of ${Buffer.byteLength(payload)} bytes is over the ${MAX_PAYLOAD_BYTES}-byte limit`);
}

/** One node: subscribers are called in process. What SQLite mode uses. */
export function createLocalChangeBus(): ChangeBus {
  const topics = new Map<string, Set<ChangeHandlers>>();
  return {
    async publish(topic, payload) {
      checkMessage(topic, payload);
      for (const h of topics.get(topic) ?? []) h.onMessage(payload);
    },
    async subscribe(topic, handlers) {
      checkMessage(topic);
      const set = topics.get(topic) ?? topics.set(topic, new Set()).get(topic)!;
      const own = { ...handlers };
      set.add(own);
      return async () => void set.delete(own);
    },
  };
}
