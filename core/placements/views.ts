/**
 * The views of a placement's ad post, read over time: as soon as its URL is known (within a
 * minute), then hourly for the first 48 hours after publication and daily until day 7. Each reading
 * is kept (the curve); the latest is the placement's `views`, which CPM is computed from.
 */
import { and, asc, eq, inArray, isNotNull, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { parsePostUrl } from "./venue";
import { ownedPlacement, type PlacementRow } from "./owned";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Hourly readings this long after publication, then daily ones until the end. */
const HOURLY_FOR = 48 * HOUR;
const READ_UNTIL = 7 * DAY;

export type ViewsSource = "mtproto" | "web" | "manual";

/** Reads the views of one post of a public channel; null when it cannot tell (the next reader is asked). */
export interface ViewsReader {
  source: Exclude<ViewsSource, "manual">;
  read(channel: string, messageId: number): Promise<number | null>;
}

/** When a post published at `published` is read next after a reading at `at`; null when reading is over. */
export function nextReadingAt(published: Date, at: Date): Date | null {
  const age = at.getTime() - published.getTime();
  if (age < HOURLY_FOR) return new Date(at.getTime() + HOUR);
  if (age < READ_UNTIL) return new Date(Math.min(at.getTime() + DAY, published.getTime() + READ_UNTIL));
  return null;
}

/** A new publication date of a placement with a post: read again from it (now, or at the date if it is ahead). */
export function rescheduleReadings(deps: Pick<Deps, "clock">, publishAt: Date | null): Pick<PlacementRow, "viewsNextAt"> {
  const now = deps.clock.now();
  return { viewsNextAt: publishAt && publishAt > now ? publishAt : now };
}

/** The columns that schedule the first reading of a new post URL (now), or stop reading without one. */
export function scheduleFirstReading(deps: Pick<Deps, "clock">, postUrl: string | null): Pick<PlacementRow, "postFoundAt" | "viewsNextAt"> {
  const now = deps.clock.now();
  return postUrl ? { postFoundAt: now, viewsNextAt: now } : { postFoundAt: null, viewsNextAt: null };
}

/** Keeps a reading and makes it the placement's latest views. */
export async function recordViews(
  deps: Pick<Deps, "asyncDb" | "clock">,
  placementId: number,
  views: number,
  source: ViewsSource,
): Promise<void> {
  const { placements, placementViews } = deps.asyncDb.tables;
  const at = deps.clock.now();
  await deps.asyncDb.insert(placementViews).values({ placementId, at, views, source });
  await deps.asyncDb.update(placements).set({ views, viewsAt: at }).where(eq(placements.id, placementId));
}

/** GET /api/placements/:id/views: the readings of one of the account's placements, oldest first (404 for anyone else's). */
export async function placementViews(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<{ at: Date; views: number }[]> {
  await ownedPlacement(deps, userId, id);
  const { placementViews: series } = deps.asyncDb.tables;
  return deps.asyncDb
    .select({ at: series.at, views: series.views })
    .from(series)
    .where(eq(series.placementId, id))
    .orderBy(asc(series.at), asc(series.id));
}

/**
 * `1.2K` as 1,200, `3.4M` as 3,400,000, `15 012`, `15,012` and `15.012` as 15,012: a figure as
 * Telegram's web preview shows it or as people type it (`12,5 тыс.`, `1,2 млн`, `3к`).
 */
export function readViewsFigure(text: string): number | null {
  const m = /^([\d\s\u00a0\u202f.,]+?)\s*(k|к|тыс\.?|m|м|млн\.?)?$/i.exec(text.trim());
  if (!m || !/\d/.test(m[1]!)) return null;
  const unit = (m[2] ?? "").toLowerCase();
  const digits = m[1]!.replace(/[\s\u00a0\u202f]/g, "");
  const number = unit
    ? Number(digits.replace(",", "."))
    : /^\d+$/.test(digits.replace(/[.,]/g, ""))
      ? Number(digits.replace(/[.,]/g, ""))
      : NaN;
  const times = !unit ? 1 : /^(k|к|тыс)/.test(unit) ? 1000 : 1_000_000;
  const views = Math.round(number * times);
  return Number.isSafeInteger(views) ? views : null;
}

/** Reads the `tgme_widget_message_views` figure of TELEGRAM_WEB_URL/<channel>/<id>?embed=1. */
export function webPreviewReader(deps: Pick<Deps, "config">, fetchFn: typeof fetch = fetch): ViewsReader {
  return {
    source: "web",
    async read(channel, messageId) {
      const res = await fetchFn(`${deps.config.telegramWebUrl}/${encodeURIComponent(channel)}/${messageId}?embed=1`, {
        signal: AbortSignal.timeout(10_000),
        redirect: "follow",
      });
      if (!res.ok) return null;
      const html = await res.text();
      const m = /class="[^"]*\btgme_widget_message_views\b[^"]*"[^>]*>([^<]+)</.exec(html);
      return m ? readViewsFigure(m[1]!) : null;
    },
  };
}

/**
 * Reads the views of every placement due now (at most `limit`), asking each reader in turn until one
 * can tell, and schedules the next reading. A post no reader can read is tried again at its next
 * time; its views can always be typed by hand. Each placement is claimed before it is read (a
 * conditional update of its next reading time), so nodes running this at once never read one twice.
 * Returns how many were read.
 */
export async function readDueViews(deps: Pick<Deps, "asyncDb" | "clock" | "log">, readers: ViewsReader[], limit = 200): Promise<number> {
  const { placements } = deps.asyncDb.tables;
  const now = deps.clock.now();
  const due = await deps.asyncDb
    .select()
    .from(placements)
    .where(and(isNotNull(placements.viewsNextAt), lte(placements.viewsNextAt, now), isNotNull(placements.postUrl)))
    .orderBy(asc(placements.viewsNextAt))
    .limit(limit);
  let read = 0;
  for (const p of due) {
    // claimed first: the next reading is moved on only if no other node moved it since the select
    const published = p.publishAt && p.publishAt <= now ? p.publishAt : (p.postFoundAt ?? now);
    const claimed = await deps.asyncDb
      .update(placements)
      .set({ viewsNextAt: nextReadingAt(published, now) })
      .where(and(eq(placements.id, p.id), eq(placements.viewsNextAt, p.viewsNextAt!)))
      .returning({ id: placements.id });
    if (!claimed.length) continue;
    const post = parsePostUrl(p.postUrl!);
    let views: { n: number; source: ViewsReader["source"] } | null = null;
    for (const reader of readers) {
      try {
        const n = await reader.read(post.channel, post.messageId);
        if (n !== null) {
          views = { n, source: reader.source };
          break;
        }
      } catch (e) {
        deps.log.warn(`placement views: ${reader.source} could not read ${p.postUrl}`, { error: String(e) });
      }
    }
    if (views) {
      await recordViews(deps, p.id, views.n, views.source);
      read++;
    }
  }
  return read;
}

/**
 * watch_links saw the service's links or invites in a public post at `url` (not a forwarded one: the
 * caller leaves those out): each placement they are bound to that has no post URL yet gets this one,
 * and its views are read within a minute. A placement in a Telegram channel takes only a post of that
 * channel (the same link seen elsewhere is someone sharing it); one of another venue takes the first.
 * A post of a private chat is left alone.
 */
export async function placementPostSeen(
  deps: Pick<Deps, "asyncDb" | "clock">,
  found: { linkId: number | null; inviteId: number | null }[],
  url: string,
): Promise<void> {
  let post: string;
  let channel: string;
  try {
    ({ url: post, channel } = parsePostUrl(url));
  } catch {
    return; // a private chat's post (t.me/c/…): no preview to read views from
  }
  const linkIds = found.flatMap((f) => (f.linkId !== null ? [f.linkId] : []));
  const inviteIds = found.flatMap((f) => (f.inviteId !== null ? [f.inviteId] : []));
  if (!linkIds.length && !inviteIds.length) return;
  const { placements, placementLinks, placementInvites } = deps.asyncDb.tables;
  const ids = new Set<number>();
  if (linkIds.length)
    for (const r of await deps.asyncDb
      .select({ id: placementLinks.placementId })
      .from(placementLinks)
      .where(inArray(placementLinks.linkId, linkIds)))
      ids.add(r.id);
  if (inviteIds.length)
    for (const r of await deps.asyncDb
      .select({ id: placementInvites.placementId })
      .from(placementInvites)
      .where(inArray(placementInvites.inviteId, inviteIds)))
      ids.add(r.id);
  if (!ids.size) return;
  const now = deps.clock.now();
  await deps.asyncDb
    .update(placements)
    .set({ postUrl: post, postFoundAt: now, viewsNextAt: now })
    .where(
      and(
        inArray(placements.id, [...ids]),
        isNull(placements.postUrl),
        or(ne(placements.venueKind, "telegram"), sql`lower(${placements.venue}) = ${channel.toLowerCase()}`),
      ),
    );
}
