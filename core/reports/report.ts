/**
 * The daily or weekly report the bot sends: clicks and uniques against the period before, the top
 * links, joins and leaves of the user's channels and keyword matches, for whole days of the user's
 * zone. Each period is queued once (a conditional update of `report_sent_for`), on every node.
 */
import { and, count, eq, gte, inArray, isNull, lt, ne, or } from "drizzle-orm";
import type { Deps } from "../deps";
import { transaction } from "../../db/async";
import { totals } from "../analytics/query";
import { deliveryChats, queueToWorkspace } from "../team-chat/destinations";
import { targetButton } from "../deep-link";
import type { Range } from "../analytics/range";
import { lastSlot, periodOf } from "./schedule";
import type { SettingsView } from "./settings";
import { numberIn, t, type Language } from "../i18n/translate";
import { bestAndWorst, bestAndWorstLine } from "./ads-line";
import { zoneName } from "../i18n/wall";

interface ReportFigures {
  clicks: number;
  uniques: number;
  /** clicks of the period before, of the same length */
  clicksBefore: number;
  top: { title: string; clicks: number }[];
  /** null when the user has no channel */
  channels: { joins: number; leaves: number } | null;
  /** null when the user has no tracker */
  matches: number | null;
  /** the period's best and worst placement; null when no placement brought anyone */
  ads: string | null;
}

const TOP = 3;

/** The figures of one user's report over `range`, compared with `previous` (the calendar day or week before it). */
async function reportFigures(deps: Deps, userId: number, range: Range, previous: Range, lang: Language): Promise<ReportFigures> {
  const db = deps.asyncDb;
  const { links, channels, channelJoins, trackers, trackerMatches } = db.tables;
  const own = await db.select({ id: links.id, title: links.title, code: links.code }).from(links).where(eq(links.userId, userId));
  const ids = own.map((l) => l.id);
  const now = await totals(deps, ids, range);
  const before = await totals(deps, ids, previous);
  const perLink = [];
  for (const l of own) perLink.push({ title: l.title || l.code, clicks: (await totals(deps, [l.id], range)).clicks });
  const top = perLink
    .filter((l) => l.clicks > 0)
    .sort((a, b) => b.clicks - a.clicks)
    .slice(0, TOP);
  const chats = (await db.selectDistinct({ chatId: channels.chatId }).from(channels).where(eq(channels.userId, userId))).map(
    (c) => c.chatId,
  );
  const from = new Date(range.from);
  const to = new Date(range.to);
  const n = (rows: { n: number }[]) => Number(rows[0]?.n ?? 0);
  const channelFigures = chats.length
    ? {
        joins: n(
          await db
            .select({ n: count() })
            .from(channelJoins)
            .where(and(inArray(channelJoins.chatId, chats), gte(channelJoins.joinedAt, from), lt(channelJoins.joinedAt, to))),
        ),
        leaves: n(
          await db
            .select({ n: count() })
            .from(channelJoins)
            .where(and(inArray(channelJoins.chatId, chats), gte(channelJoins.leftAt, from), lt(channelJoins.leftAt, to))),
        ),
      }
    : null;
  const trackerIds = (await db.select({ id: trackers.id }).from(trackers).where(eq(trackers.userId, userId))).map((t) => t.id);
  const matches = trackerIds.length
    ? n(
        await db
          .select({ n: count() })
          .from(trackerMatches)
          .where(
            and(inArray(trackerMatches.trackerId, trackerIds), gte(trackerMatches.detectedAt, from), lt(trackerMatches.detectedAt, to)),
          ),
      )
    : null;
  const ads = bestAndWorstLine(lang, await bestAndWorst(deps, userId, range));
  return { clicks: now.clicks, uniques: now.uniques, clicksBefore: before.clicks, top, channels: channelFigures, matches, ads };
}

const esc = (s: string) => Bun.escapeHTML(s);

/** The change against the period before, as people say it: "+12 %", "−40 %", "none the period before", or nothing. */
function change(lang: Language, now: number, before: number): string {
  if (before === 0) return now > 0 ? t(lang, "report-change-none-before") : "";
  const pct = Math.round(((now - before) / before) * 100);
  return t(lang, "report-change", { change: `${pct > 0 ? "+" : pct < 0 ? "−" : "±"}${Math.abs(pct)}` });
}

/** A signed count: +12, −3. */
const signed = (lang: Language, n: number) => `${n >= 0 ? "+" : "−"}${numberIn(lang, Math.abs(n))}`;

/** The report's message (HTML), in the user's language. */
function reportMessage(lang: Language, s: Pick<SettingsView, "time_zone" | "report_every">, range: Range, f: ReportFigures) {
  const num = (n: number) => numberIn(lang, n);
  const day = (ms: number) =>
    new Date(ms).toLocaleDateString(lang === "ru" ? "ru-RU" : "en-GB", {
      timeZone: s.time_zone,
      weekday: "short",
      day: "numeric",
      month: "short",
    });
  const label = s.report_every === "week" ? `${day(range.from)} – ${day(range.to - 1)}` : day(range.from);
  const lines = [
    t(lang, s.report_every === "week" ? "report-head-weekly" : "report-head-daily", {
      period: esc(label),
      zone: esc(zoneName(s.time_zone, lang, new Date(range.to))),
    }),
    "",
    t(lang, "report-clicks", { clicks: num(f.clicks), uniques: num(f.uniques), change: change(lang, f.clicks, f.clicksBefore) }),
  ];
  if (f.top.length) lines.push(`🔝 ${f.top.map((l, i) => `${i + 1}. ${esc(l.title)} — ${num(l.clicks)}`).join(" · ")}`);
  if (f.channels)
    lines.push(
      t(lang, "report-channels", {
        joins: num(f.channels.joins),
        leaves: num(f.channels.leaves),
        net: signed(lang, f.channels.joins - f.channels.leaves),
      }),
    );
  if (f.matches !== null) lines.push(t(lang, "report-matches", { count: num(f.matches) }));
  if (f.ads) lines.push(f.ads);
  return {
    text: lines.join("\n"),
    reply_markup: {
      inline_keyboard: [
        [targetButton(t(lang, "report-my-links"), { kind: "links" }), targetButton(t(lang, "report-settings"), { kind: "reports" })],
      ],
    },
  };
}

/**
 * Queues the report of every user whose slot has come (once per period, whatever the number of
 * nodes or runs): the settings row is claimed by moving `report_sent_for` to the slot, and the
 * message is queued in the same transaction, to each of the workspace's chats (core/team-chat).
 * Accounts without a Telegram chat are skipped. Returns how many.
 */
export async function sendDueReports(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const { userSettings } = deps.asyncDb.tables;
  const rows = await deps.asyncDb.select().from(userSettings).where(ne(userSettings.reportEvery, "off"));
  let sent = 0;
  for (const s of rows) {
    const settings = { time_zone: s.timeZone, report_every: s.reportEvery, report_hour: s.reportHour, report_weekday: s.reportWeekday };
    const slot = lastSlot(settings, now);
    if (s.reportSentFor && s.reportSentFor.getTime() >= slot.getTime()) continue;
    // a person's own chat; a team's group, else its owners and admins (none: an account without Telegram)
    const to = await deliveryChats(deps.asyncDb, s.userId);
    if (!to.length) continue;
    const range = periodOf(settings, slot);
    // the period before is the calendar day (or week) before, in the user's zone: not the same number
    // of hours back, which a DST change would shift by an hour
    const previous = periodOf(settings, new Date(range.from));
    const messages = new Map<Language, Record<string, unknown>>();
    for (const { lang } of to)
      if (!messages.has(lang))
        messages.set(lang, reportMessage(lang, settings, range, await reportFigures(deps, s.userId, range, previous, lang)));
    const queued = await transaction(deps.asyncDb, async (tx) => {
      const claimed = await tx
        .update(userSettings)
        .set({ reportSentFor: slot })
        .where(and(eq(userSettings.userId, s.userId), or(isNull(userSettings.reportSentFor), lt(userSettings.reportSentFor, slot))))
        .returning({ userId: userSettings.userId });
      if (!claimed.length) return false;
      await queueToWorkspace(tx, now, { userId: s.userId, topic: "report" }, (lang) => messages.get(lang)!, to);
      return true;
    });
    if (queued) sent++;
  }
  return sent;
}
