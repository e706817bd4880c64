import type { SQL } from "bun";
import { checkMessage, type ChangeBus } from "./change-bus";

/** Channel names of the cluster's notifications, so they cannot meet another application's. */
const channel = (topic: string) => `linkbot_${topic}`;

/**
 * The change bus on PostgreSQL LISTEN/NOTIFY. Bun's driver keeps one listening connection per
 * pool and re-subscribes after a reconnect; notifications sent while it was away are lost, so each
 * re-subscription is reported as a gap. A NOTIFY sent inside a transaction is delivered when (and
 * only if) it commits, so an edit and its invalidation travel together.
 */
export function createPgChangeBus(sql: SQL): ChangeBus {
  return {
    async publish(topic, payload) {
      checkMessage(topic, payload);
      await sql.notify(channel(topic), payload);
    },
    async subscribe(topic, handlers) {
      checkMessage(topic);
      let listens = 0;
      const subscription = await sql.listen(
        channel(topic),
        (payload) => handlers.onMessage(payload),
        () => {
          if (++listens > 1) handlers.onGap?.();
        },
      );
      return () => subscription.unlisten();
    },
  };
}
