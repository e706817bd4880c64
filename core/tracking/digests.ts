import { and, asc, eq, inArray, lt, min, ne, or } from "drizzle-orm";
import type { Deps } from "../deps";
import { queueBotMessage } from "../delivery/outbox";
import { queueToWorkspace } from "../team-chat/destinations";
import { targetButton } from "../deep-link";
import { transaction } from "../../db/async";
import type { MatchRow } from "./matches";
import { chatMessage, fitting, highlight, openLink, readButton } from "./match-messages";
import { ownerChat } from "../accounts/users";
import { t, type Language } from "../i18n/translate";
import { localMidnight } from "../clock";
import { timeZoneOf } from "../i18n/zone";
import type { TrackerRow } from "./trackers";

/** At most this many matches are listed in a digest; the rest are counted. */
const DIGEST_LIST = 10;

const HOUR = 3600_000;

/** The start of the hour `now` is in: an hourly digest's matches detected before it belong to a closed hour. */
const hourStart = (now: Date) => new Date(now.getTime() - (now.getTime() % HOUR));

/** The Bot API parameters of one tracker's digest. */
function digestMessage(lang: Language, tracker: TrackerRow, matches: MatchRow[]) {
  const lines = fitting(
    matches
      .slice(0, DIGEST_LIST)
      .map(
        (m) =>
          `• ${Bun.escapeHTML(m.sourceTitle ?? m.sourceUsername ?? t(lang, "notify-some-chat"))}:${openLink(lang, m)}\n${highlight(m.textSnippet, m.matchedKeyword)}`,
      ),
  );
  const more = matches.length > lines.length ? [t(lang, "notify-and-more", { count: matches.length - lines.length })] : [];
  const head = t(lang, tracker.notifyEvery === "day" ? "digest-head-day" : "digest-head-hour", {
    tracker: Bun.escapeHTML(tracker.name),
    count: matches.length,
  });
  const text = [head, "", ...lines, ...more].join("\n");
  const ids = matches.map((m) => m.id);
  return {
    text,
    link_preview_options: { is_disabled: true },
    reply_markup: {
      inline_keyboard: [
        [readButton(t(lang, "notify-mark-these-read"), ids), targetButton(t(lang, "notify-tracker"), { kind: "tracker", id: tracker.id })],
      ],
    },
  };
}

/**
 * Sends the digest of every tracker with `notify_every` "hour" or "day" whose matches wait from a
 * UTC hour, or a day of the owner's time zone (Settings; UTC until set), that has ended: one message per tracker, to the owner's chat with the bot or the
 * tracker's team chat (and topic). Runs from the notifications job; the waiting state is in the
 * database, so a restart loses nothing, and a row is taken by one conditional update, so two nodes
 * never send it twice. Returns the number of digests queued.
 */
export async function flushTrackerDigests(deps: Pick<Deps, "asyncDb" | "clock">): Promise<number> {
  const now = deps.clock.now();
  const hour = hourStart(now);
  const { trackerMatches, trackers } = deps.asyncDb.tables;
  // daily digests: a loose bound here, the owner's own midnight below
  const due = or(and(eq(trackers.notifyEvery, "hour"), lt(trackerMatches.detectedAt, hour)), eq(trackers.notifyEvery, "day"));
  const waiting = await deps.asyncDb
    .selectDistinct({ trackerId: trackers.id, userId: trackers.userId, every: trackers.notifyEvery })
    .from(trackerMatches)
    .innerJoin(trackers, eq(trackers.id, trackerMatches.trackerId))
    .where(and(eq(trackerMatches.notifyPending, true), ne(trackers.notifyVia, "webhook"), due))
    .orderBy(trackers.id);
  let sent = 0;
  const zones = new Map<number, string>();
  for (const { trackerId, userId, every } of waiting) {
    // an hourly digest closes with the hour; a daily one at midnight in the owner's time zone
    let closed = hour;
    if (every === "day") {
      let zone = zones.get(userId);
      if (zone === undefined) zones.set(userId, (zone = await timeZoneOf(deps, userId)));
      closed = new Date(localMidnight(zone, now.getTime()));
      const [first] = await deps.asyncDb
        .select({ at: min(trackerMatches.detectedAt) })
        .from(trackerMatches)
        .where(and(eq(trackerMatches.trackerId, trackerId), eq(trackerMatches.notifyPending, true)));
      if (!first?.at || new Date(first.at).getTime() >= closed.getTime()) continue; // its day is not over yet
    }
    const queued = await transaction(deps.asyncDb, async (tx) => {
      const rows = await tx
        .select({ id: trackerMatches.id })
        .from(trackerMatches)
        .where(and(eq(trackerMatches.trackerId, trackerId), eq(trackerMatches.notifyPending, true), lt(trackerMatches.detectedAt, closed)));
      if (!rows.length) return false;
      const taken = await tx
        .update(trackerMatches)
        .set({ notifyPending: false })
        .where(
          and(
            inArray(
              trackerMatches.id,
              rows.map((r) => r.id),
            ),
            eq(trackerMatches.notifyPending, true),
          ),
        )
        .returning({ id: trackerMatches.id });
      if (!taken.length) return false;
      const [tracker] = await tx.select().from(trackers).where(eq(trackers.id, trackerId)).limit(1);
      const matches = await tx
        .select()
        .from(trackerMatches)
        .where(
          inArray(
            trackerMatches.id,
            taken.map((t) => t.id),
          ),
        )
        .orderBy(asc(trackerMatches.id));
      const { lang } = await ownerChat(tx, tracker!.userId);
      if (tracker!.notifyVia === "chat") {
        const params = digestMessage(lang, tracker!, matches);
        if (!tracker!.notifyChatId) return false;
        await queueBotMessage(tx, now, {
          userId: tracker!.userId,
          topic: "tracker_digest",
          refId: trackerId,
          chatId: tracker!.notifyChatId,
          params: chatMessage(lang, params, null, tracker!.notifyThreadId),
        });
        return true;
      }
      const message = (l: typeof lang) => digestMessage(l, tracker!, matches);
      return (await queueToWorkspace(tx, now, { userId: tracker!.userId, topic: "tracker_digest", refId: trackerId }, message)) > 0;
    });
    if (queued) sent++;
  }
  return sent;
}
