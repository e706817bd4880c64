import { createHash, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { AsyncDbOrTx } from "../../db/async";
import type { Config } from "../../config";
import { webhookRow } from "../delivery/outbox";
import { ANY_EVENT, type PostbackFacts } from "./events";

/** The outbox topic of one postback delivery (`ref_id` the postback) and of a click's fan-out (`ref_id` the link). */
export const POSTBACK_TOPIC = "postback";
export const CLICK_FANOUT_TOPIC = "postback_click";
/** The version of Meta's Graph API the Meta format calls. */
const META_API_VERSION = "v21.0";

type PostbackRow = AsyncDbOrTx["tables"]["postbacks"]["$inferSelect"];

/** Whether postback `p` is sent for these facts: its events, and its link or placement (neither: the whole account). */
function postbackWants(p: Pick<PostbackRow, "events" | "linkId" | "placementId">, facts: PostbackFacts): boolean {
  if (!p.events.includes(facts.event) && !p.events.includes(ANY_EVENT)) return false;
  if (p.linkId !== null) return p.linkId === facts.link_id;
  if (p.placementId !== null) return p.placementId === facts.placement_id;
  return true;
}

/** Where a postback's deliveries go: its URL template, or the Meta pixel's events endpoint. */
export function postbackTarget(config: Pick<Config, "metaGraphUrl">, p: Pick<PostbackRow, "kind" | "url" | "pixelId">): string {
  if (p.kind === "meta")
    return `${config.metaGraphUrl.replace(/\/+$/, "")}/${META_API_VERSION}/${encodeURIComponent(p.pixelId ?? "")}/events`;
  return p.url ?? "";
}

/** A delivery id made from a cause and a postback: the same cause queued twice is one delivery (the outbox keeps ids unique). */
const derivedId = (cause: string, postbackId: number) => {
  const h = createHash("sha256").update(`${cause}\n${postbackId}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/**
 * Queues one delivery per postback of `ownerId` that wants `facts`, in the caller's transaction (the
 * one that records the cause). With `cause` (a click fan-out's own delivery id) each delivery's id is
 * derived from it, so a fan-out done twice queues each delivery once. Returns how many were queued.
 */
export async function queuePostbacks(
  db: AsyncDbOrTx,
  deps: { config: Pick<Config, "metaGraphUrl">; now: Date },
  ownerId: number,
  facts: PostbackFacts,
  cause?: string,
): Promise<number> {
  const { postbacks, outbox } = db.tables;
  const wanted = (await db.select().from(postbacks).where(eq(postbacks.userId, ownerId))).filter((p) => postbackWants(p, facts));
  if (!wanted.length) return 0;
  const rows = wanted.map((p) => ({
    ...webhookRow(deps.now, {
      userId: ownerId,
      topic: POSTBACK_TOPIC,
      refId: p.id,
      url: postbackTarget(deps.config, p),
      method: p.kind === "meta" ? "POST" : p.method,
      data: facts as unknown as Record<string, unknown>,
    }),
    deliveryId: cause ? derivedId(cause, p.id) : randomUUID(),
  }));
  await db.insert(outbox).values(rows).onConflictDoNothing();
  return rows.length;
}
