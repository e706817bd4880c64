import type { Deps } from "../core/deps";
import { createMtprotoSource, type MtprotoSource } from "../core/tracking/mtproto";

/**
 * Starts the optional MTProto keyword-tracking source when MTPROTO_API_ID, MTPROTO_API_HASH and
 * MTPROTO_SESSION are all set; otherwise (or when Telegram refuses the session) returns null and the
 * bot stays the only source. main.ts re-syncs the followed chats hourly with `sync()`.
 */
export async function startMtprotoSource(deps: Deps): Promise<MtprotoSource | null> {
  const cfg = deps.config.mtproto;
  if (!cfg) return null;
  if (!cfg.session) {
    deps.log.warn("MTPROTO_API_ID/MTPROTO_API_HASH are set but MTPROTO_SESSION is empty: the MTProto source is off");
    return null;
  }
  try {
    const { createGramJsClient } = await import("../core/tracking/mtproto-gramjs");
    const source = createMtprotoSource(deps, await createGramJsClient(cfg));
    await source.start();
    return source;
  } catch (e) {
    deps.log.error("MTProto source could not start; continuing with the bot as the only source", e);
    return null;
  }
}
