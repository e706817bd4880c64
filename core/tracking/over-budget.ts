/**
 * The owner of a tracker skipped on a post because it would have cost more work than its budget
 * (query-match.ts) is told so once per tracker and wording: the message's delivery id is made of the
 * tracker and a hash of what it matches by, so every node and every later post finds it already
 * queued (until the outbox forgets sent messages, after a week). A tracker edited into another query
 * that is also too costly is told again.
 */
import type { Deps } from "../deps";
import { botMessageRow } from "../delivery/outbox";
import { addressed, deliveryChats } from "../team-chat/destinations";
import { targetButton } from "../deep-link";
import { t } from "../i18n/translate";
import type { IndexedTracker } from "./index-cache";

const noticeKey = (tracker: IndexedTracker) => {
  const wording = JSON.stringify([tracker.keyword, tracker.syntax, tracker.wordForms, tracker.minusWords]);
  return `tracker-over-budget:${tracker.id}:${new Bun.CryptoHasher("sha256").update(wording).digest("hex").slice(0, 16)}`;
};

/** Queues the one-time notice for each tracker in `skipped` whose owner has not had it. Returns how many were queued now. */
export async function noticeOverBudget(
  deps: Pick<Deps, "asyncDb" | "clock" | "log" | "trackerIndex">,
  skipped: IndexedTracker[],
): Promise<number> {
  let queued = 0;
  for (const tracker of skipped) {
    const key = noticeKey(tracker);
    if (deps.trackerIndex.told.has(key)) continue;
    deps.trackerIndex.told.add(key);
    deps.log.warn(`tracker ${tracker.id} skipped on a post: it would have cost more than its work budget`);
    // to the workspace's chats (a team's group, else its owners and admins), once each
    for (const to of await deliveryChats(deps.asyncDb, tracker.userId)) {
      const row = botMessageRow(deps.clock.now(), {
        userId: tracker.userId,
        topic: "notice",
        refId: tracker.id,
        chatId: to.chatId,
        params: addressed(
          {
            text: t(to.lang, "tracker-over-budget", { name: Bun.escapeHTML(tracker.name) }),
            reply_markup: { inline_keyboard: [[targetButton(t(to.lang, "notify-tracker"), { kind: "tracker", id: tracker.id })]] },
          },
          to,
        ),
      });
      const inserted = await deps.asyncDb
        .insert(deps.asyncDb.tables.outbox)
        .values({ ...row, deliveryId: `${key}:${to.chatId}` })
        .onConflictDoNothing({ target: deps.asyncDb.tables.outbox.deliveryId })
        .returning({ id: deps.asyncDb.tables.outbox.id });
      queued += inserted.length;
    }
  }
  return queued;
}
