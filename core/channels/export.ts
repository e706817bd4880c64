import { and, asc, desc, eq, gte, isNotNull, or, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { FieldError, NotFound } from "../errors";
import { csvCell } from "../analytics/export";
import { buildSheetXlsx } from "../analytics/xlsx";
import { ownerIdOf, personOf, sendToUserChat, userChat, type ChatOwner } from "../analytics/telegram";
import { runChannel } from "./channels";
import { renderJoinChart, type JoinSeries } from "./chart";
import { t, type Language } from "../i18n/translate";
import { cellAt, zoneName } from "../i18n/wall";
import { localMidnight } from "../clock";
import { timeZoneOf } from "../i18n/zone";

/** Most rows one journal export holds. */
const JOURNAL_EXPORT_LIMIT = 100_000;
/** The journal's columns, named in the language files as `journal-column-<name>`. */
const COLUMNS = ["joined", "left", "user-id", "username", "first-name", "invite", "via", "via-request"] as const;

async function ownInvites(deps: Pick<Deps, "asyncDb">, userId: number, channelId: number, inviteId?: number) {
  const { channelInvites } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .select({ id: channelInvites.id, name: channelInvites.name })
    .from(channelInvites)
    .where(and(eq(channelInvites.channelId, channelId), eq(channelInvites.userId, userId)))
    .orderBy(channelInvites.id);
  if (inviteId !== undefined && !rows.some((r) => r.id === inviteId)) throw new NotFound("Invite");
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * Sends a channel's join journal (or one invite's) to the user's Telegram chat as CSV or XLSX, like
 * the click exports: newest join first, at most JOURNAL_EXPORT_LIMIT rows.
 */
export async function exportJoinJournal(deps: Deps, who: ChatOwner, channelId: number, req: { format: string; invite_id?: number }) {
  const userId = ownerIdOf(who);
  if (req.format !== "csv" && req.format !== "xlsx") throw new FieldError("format", "must be csv or xlsx");
  const channel = await runChannel(deps, userId, channelId);
  const names = await ownInvites(deps, userId, channelId, req.invite_id);
  const { lang } = await userChat(deps, who);
  const zone = await timeZoneOf(deps, personOf(who));
  const when = (d: Date | null) => (d ? cellAt(zone, d) : "");
  const { channelJoins } = deps.asyncDb.tables;
  const found = await deps.asyncDb
    .select()
    .from(channelJoins)
    .where(and(eq(channelJoins.chatId, channel.chatId), req.invite_id !== undefined ? eq(channelJoins.inviteId, req.invite_id) : undefined))
    .orderBy(sql`${channelJoins.joinedAt} desc nulls last`, desc(channelJoins.id))
    .limit(JOURNAL_EXPORT_LIMIT);
  const title = channel.title ?? channel.chatId;
  if (!found.length) return { ok: false, message: `Nobody has joined or left ${title} yet; nothing was sent`, rows: 0 };
  const rows = found.map((r) => {
    const mine = r.inviteId !== null && names.has(r.inviteId);
    return [
      when(r.joinedAt),
      when(r.leftAt),
      String(r.memberId),
      r.username ?? "",
      r.firstName ?? "",
      mine ? names.get(r.inviteId!)! : "",
      t(lang, `journal-via-${r.via === "invite" && !mine ? "other_link" : r.via}`),
      r.viaJoinRequest ? t(lang, "export-yes") : t(lang, "export-no"),
    ];
  });
  const named = zoneName(zone, lang, deps.clock.now());
  const columns = COLUMNS.map((c) =>
    c === "joined" || c === "left"
      ? t(lang, "tz-column", { column: t(lang, `journal-column-${c}`), zone: named })
      : t(lang, `journal-column-${c}`),
  );
  const bytes =
    req.format === "csv"
      ? new TextEncoder().encode(`\uFEFF${[columns.map(csvCell).join(","), ...rows.map((r) => r.map(csvCell).join(","))].join("\r\n")}\r\n`)
      : buildSheetXlsx(title.slice(0, 31).replace(/[\\/?*:[\]]/g, "_") || "Joins", columns, [20, 20, 14, 18, 18, 24, 12, 10], rows);
  const filename = `joins-${channel.username ?? channel.chatId}-${deps.clock.now().toISOString().slice(0, 10)}.${req.format}`;
  await sendToUserChat(deps, who, "document", {
    bytes,
    filename,
    caption: t(lang, "journal-caption", { count: rows.length, title, format: req.format.toUpperCase() }),
    open: { kind: "channel", id: channel.id },
  });
  return {
    ok: true,
    message: `Sent ${filename} with ${rows.length.toLocaleString("en-US")} rows to your Telegram chat`,
    rows: rows.length,
  };
}

const DAY = 86_400_000;

/**
 * Joins per day of each of the account's invites (and the unattributed), and leaves per day, over the
 * last `days` days: the calendar days of `zone` (the reader's), labelled as `lang` writes a day and
 * month (11.03 in Russian, 03/11 in English).
 */
export async function joinSeries(
  deps: Pick<Deps, "asyncDb" | "clock" | "telegram" | "chatStandings">,
  userId: number,
  channelId: number,
  days: number,
  inviteId?: number,
  lang: Language = "en",
  zone = "UTC",
): Promise<JoinSeries> {
  const channel = await runChannel(deps, userId, channelId);
  const names = await ownInvites(deps, userId, channelId, inviteId);
  // each day's first instant, oldest first, today last (a day with a DST change is 23 or 25 hours)
  const starts = [localMidnight(zone, deps.clock.now().getTime())];
  while (starts.length < days) starts.unshift(localMidnight(zone, starts[0]! - DAY / 2));
  const start = starts[0]!;
  const end = localMidnight(zone, starts.at(-1)! + DAY + DAY / 2);
  const dayMonth = new Intl.DateTimeFormat(lang, { day: "2-digit", month: "2-digit", timeZone: zone });
  const labels = starts.map((s) => dayMonth.format(new Date(s + DAY / 2)));
  const { channelJoins } = deps.asyncDb.tables;
  const since = new Date(start);
  const rows = await deps.asyncDb
    .select({ inviteId: channelJoins.inviteId, joinedAt: channelJoins.joinedAt, leftAt: channelJoins.leftAt })
    .from(channelJoins)
    .where(
      and(
        eq(channelJoins.chatId, channel.chatId),
        inviteId !== undefined ? eq(channelJoins.inviteId, inviteId) : undefined,
        or(gte(channelJoins.joinedAt, since), and(isNotNull(channelJoins.leftAt), gte(channelJoins.leftAt, since))),
      ),
    )
    .orderBy(asc(channelJoins.id));
  const joins = new Map<string, number[]>();
  const leaves = new Array<number>(days).fill(0);
  const unattributed = t(lang, "chart-unattributed");
  /** the day a moment falls in: the last start at or before it (-1 before the first, `days` from the end on) */
  const slot = (d: Date | null) => {
    if (!d) return -1;
    const at = d.getTime();
    if (at >= end) return days;
    let i = starts.length - 1;
    while (i >= 0 && starts[i]! > at) i--;
    return i;
  };
  for (const r of rows) {
    const name = r.inviteId !== null && names.has(r.inviteId) ? names.get(r.inviteId)! : unattributed;
    const j = slot(r.joinedAt);
    if (j >= 0 && j < days) {
      if (!joins.has(name)) joins.set(name, new Array<number>(days).fill(0));
      joins.get(name)![j]!++;
    }
    const l = slot(r.leftAt);
    if (l >= 0 && l < days) leaves[l]!++;
  }
  return { lang, title: channel.title ?? channel.chatId, labels, joins: [...joins].map(([name, data]) => ({ name, data })), leaves };
}

/** Sends the joins-and-leaves-per-day chart of a channel (or one invite) to the user's Telegram chat as a PNG. */
export async function sendJoinChart(deps: Deps, who: ChatOwner, channelId: number, req: { days?: number; invite_id?: number }) {
  const userId = ownerIdOf(who);
  const days = req.days ?? 30;
  if (!Number.isInteger(days) || days < 1 || days > 365) throw new FieldError("days", "must be a whole number from 1 to 365");
  const { lang } = await userChat(deps, who);
  const series = await joinSeries(deps, userId, channelId, days, req.invite_id, lang, await timeZoneOf(deps, personOf(who)));
  const bytes = await renderJoinChart(series);
  const caption = t(lang, "journal-chart-caption", { title: series.title, days });
  await sendToUserChat(deps, who, "photo", {
    bytes,
    filename: `joins-${channelId}.png`,
    caption,
    open: { kind: "channel", id: channelId },
  });
  return { ok: true, message: "Sent the chart to your Telegram chat" };
}
