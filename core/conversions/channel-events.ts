import { eq } from "drizzle-orm";
import type { AsyncTx } from "../../db/async";
import type { Config } from "../../config";
import { inviteFacts } from "./attribution";
import { conversionFacts } from "./conversions";
import { noFacts } from "./events";
import { queuePostbacks } from "./queue";

/** A person's join request, join or leave through an invite, as conversions and postbacks see it. */
export interface ChannelEvent {
  event: "join_request" | "join" | "leave";
  inviteId: number;
  tgUserId: number;
  at: Date;
}

/**
 * What a channel event through one of the service's invites means here, in the transaction that
 * journals it: a join is a `join` conversion of the invite's owner (attributed to the invite, its
 * tracking link and its placement), so joins count with the other conversions without any call;
 * each event queues the owner's postbacks that want it.
 */
export async function recordChannelEvent(tx: AsyncTx, deps: { config: Pick<Config, "metaGraphUrl">; now: Date }, e: ChannelEvent) {
  const invite = await inviteFacts(tx, e.inviteId);
  if (!invite) return;
  const { conversions, links } = tx.tables;
  const code =
    invite.linkId === null
      ? null
      : ((await tx.select({ code: links.code }).from(links).where(eq(links.id, invite.linkId)))[0]?.code ?? null);
  if (e.event === "join") {
    const [row] = await tx
      .insert(conversions)
      .values({
        userId: invite.ownerId,
        event: "join",
        tgUserId: e.tgUserId,
        linkId: invite.linkId,
        placementId: invite.placementId,
        inviteId: e.inviteId,
        occurredAt: e.at,
        createdAt: deps.now,
      })
      .returning();
    await queuePostbacks(tx, deps, invite.ownerId, conversionFacts(row!, code));
    return;
  }
  await queuePostbacks(tx, deps, invite.ownerId, {
    ...noFacts(e.event, e.at),
    link_id: invite.linkId,
    code,
    placement_id: invite.placementId,
    invite_id: e.inviteId,
    tg_user_id: e.tgUserId,
  });
}
