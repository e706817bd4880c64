import { timeZoneOf } from "../i18n/zone";
import { eq } from "drizzle-orm";
import { routingStatsOf } from "./routing-stats";
import type { Deps } from "../deps";
import { AppError, FieldError } from "../errors";
import type { LinkRow } from "../../db/schema";
import { DAY, parseInstant, parsePeriod, parseTimeZone, type Period, type Range } from "./range";
import { botsOf, byCount, devicesOf, geoOf, rangeOf, referrersOf, statsOf, timelineOf, withPercentages } from "./stats";
import { ownedLink } from "../links/links";
import { totals } from "./query";
import type { Breakdown, SummaryCard } from "./charts";
import { ownerIdOf, personOf, sendToUserChat, userChat, type ChatOwner } from "./telegram";
import { trackingUrl } from "./qr";
import { deviceName, numberIn, t, type Language } from "../i18n/translate";
import { ownerChat } from "../accounts/users";

/**
 * Chart.js, the canvas and sharp load with the first image drawn, not with the server: they are most
 * of the heap a running server would otherwise carry, and a bigger heap makes every garbage
 * collection (and so the redirect's slowest answers) longer.
 */
async function renderCard(card: SummaryCard): Promise<Uint8Array> {
  return (await import("./charts")).renderSummaryCard(card);
}

/** Body of `POST /links/send-summary` (tz is an extension: the zone of the timeline, default the user's zone from Settings). */
export interface SummaryRequest {
  period?: string;
  linkId?: number;
  dateFrom?: string;
  dateTo?: string;
  tz?: string;
}

/** Longest dateFrom–dateTo range of a summary (a range of centuries would build millions of timeline buckets). */
const MAX_RANGE_DAYS = 10 * 366;

/**
 * The range a summary covers: `period`, or `dateFrom`/`dateTo` (ISO; a bare date in `dateTo`
 * includes that whole day; a missing side falls back to the period's).
 */
export async function summaryRange(deps: Pick<Deps, "asyncDb" | "clock">, linkRows: LinkRow[], req: SummaryRequest, lang: Language = "en") {
  const period: Period = parsePeriod(req.period);
  const byPeriod = await rangeOf(deps, linkRows, period);
  if (!req.dateFrom && !req.dateTo) return { period, range: byPeriod, label: t(lang, `period-${period}`) };
  const from = req.dateFrom ? parseInstant("dateFrom", req.dateFrom) : byPeriod.from;
  let to = req.dateTo ? parseInstant("dateTo", req.dateTo) : byPeriod.to;
  if (req.dateTo && /^\d{4}-\d{2}-\d{2}$/.test(req.dateTo)) to += DAY;
  if (from >= to) throw new FieldError("dateTo", "must be later than dateFrom");
  if (from > deps.clock.now().getTime()) throw new FieldError("dateFrom", "must not be in the future");
  if (to - from > MAX_RANGE_DAYS * DAY) throw new FieldError("dateTo", `the range may span at most ${MAX_RANGE_DAYS / 366} years`);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { period: null, range: { from, to } as Range, label: `${day(from)} – ${day(to - 1)}` };
}

const top = (items: { name: string; count: number }[], n = 7): Breakdown["items"] =>
  items.slice(0, n).map(({ name, count }) => ({ name, count }));

/**
 * Gathers the numbers of a summary card for one link (`linkId`) or all of the workspace's links. The
 * card goes to a person's own chat, so its days are the reader's (`who`'s person: the zone asked
 * for, else the one they set in Settings, UTC until then) and so are its words.
 */
export async function summaryCard(
  deps: Deps,
  who: ChatOwner,
  req: SummaryRequest,
): Promise<{ card: SummaryCard; caption: string; filename: string }> {
  const userId = ownerIdOf(who);
  const tz = parseTimeZone(req.tz ?? (await timeZoneOf(deps, personOf(who))));
  const { lang } = await ownerChat(deps.asyncDb, personOf(who));
  const fmt = (n: number) => numberIn(lang, n);
  const single = req.linkId !== undefined ? await ownedLink(deps, userId, req.linkId) : null;
  const { links } = deps.asyncDb.tables;
  const linkRows = single ? [single] : await deps.asyncDb.select().from(links).where(eq(links.userId, userId));
  if (!linkRows.length) throw new AppError(404, "not_found", "You have no links yet: create one, then ask for a summary");
  const { period, range, label } = await summaryRange(deps, linkRows, req, lang);
  const ids = linkRows.map((l) => l.id);
  const stats = await statsOf(deps, linkRows, period, range);
  const hourly = range.to - range.from <= 2 * DAY;
  const timeline = await timelineOf(deps, ids, range, tz, hourly ? "hourly" : "daily");
  const devices = await devicesOf(deps, ids, range);
  const bots = await botsOf(deps, ids, range);
  const countries = top((await geoOf(deps, ids, range)).map((g) => ({ name: g.country, count: g.count })));
  const breakdowns: Breakdown[] = [];
  if (!single) {
    // keyed by code (titles may repeat), shown by title
    const perLink: (readonly [string, number, string])[] = [];
    for (const l of linkRows) perLink.push([l.code, (await totals(deps, [l.id], range)).clicks, headOf(l)] as const);
    const ranked = [...perLink].sort((a, b) => byCount([a[0], a[1]], [b[0], b[1]]));
    breakdowns.push({
      title: t(lang, "summary-top-links"),
      items: top(ranked.map(([, count, name]) => ({ name: name.slice(0, 18), count }))),
    });
  }
  breakdowns.push(
    { title: t(lang, "summary-top-countries"), items: countries },
    { title: t(lang, "summary-devices"), items: top(devices.devices).map((d) => ({ ...d, name: deviceName(lang, d.name) })) },
  );
  if (single) breakdowns.push({ title: t(lang, "summary-browsers"), items: top(devices.browsers) });
  const sources = (await referrersOf(deps, ids, range)).map((r) => ({ name: r.referrer || t(lang, "summary-direct"), count: r.count }));
  breakdowns.push({ title: t(lang, "summary-referrers"), items: top(sources) });
  breakdowns.push({ title: t(lang, "summary-bots"), items: top(bots.bots) });
  const title = single ? headOf(single) : t(lang, "summary-all-links");
  const subtitle = single
    ? `${await trackingUrl(deps, single)} · ${label}`
    : `${t(lang, "summary-link-count", { count: linkRows.length })} · ${label}${tz === "UTC" ? "" : ` · ${tz}`}`;
  const card: SummaryCard = {
    lang,
    title,
    subtitle,
    tiles: [
      [t(lang, "summary-clicks"), fmt(stats.totalClicks)],
      [t(lang, "summary-unique"), fmt(stats.uniqueClicks)],
      [t(lang, "summary-bots"), fmt(stats.botClicks)],
      [t(lang, "summary-per-day"), fmt(stats.avgClicksPerDay)],
    ],
    timeline: {
      labels: timeline.map((p) => p.date),
      clicks: timeline.map((p) => p.clicks),
      unique: timeline.map((p) => p.unique),
      unit: hourly ? "hour" : "day",
    },
    breakdowns,
  };
  const caption = [
    t(lang, "stats-title", { name: title, period: label }),
    [
      t(lang, "stats-clicks", { count: fmt(stats.totalClicks) }),
      t(lang, "stats-unique", { count: fmt(stats.uniqueClicks) }),
      t(lang, "stats-bots", { count: fmt(stats.botClicks) }),
      ...(stats.topCountry ? [t(lang, "summary-top-country", { country: stats.topCountry })] : []),
    ].join(" · "),
  ].join("\n");
  const filename = `${single ? `stats-${single.code}` : "stats-all-links"}-${new Date(range.to - 1).toISOString().slice(0, 10)}.png`;
  return { card, caption, filename };
}

/** Renders the summary PNG (for the bot, which replies in the person's own chat). */
export async function summaryImage(deps: Deps, who: ChatOwner, req: SummaryRequest) {
  const { card, caption, filename } = await summaryCard(deps, who, req);
  return { png: await renderCard(card), caption, filename };
}

/** `POST /links/send-summary`: renders the summary and sends it to the user's Telegram chat. */
export async function sendSummary(deps: Deps, who: ChatOwner, req: SummaryRequest): Promise<{ ok: true }> {
  await userChat(deps, who); // fail fast (no bot / no Telegram identity) before any work
  const { card, caption, filename } = await summaryCard(deps, who, req);
  await sendToUserChat(deps, who, "photo", {
    bytes: await renderCard(card),
    filename,
    caption,
    ...(req.linkId ? { open: { kind: "link", id: req.linkId } } : {}),
  });
  return { ok: true };
}

/** What heads a link: its title, else where it leads (`shop.example/sale`), never its code alone. */
function headOf(link: { title: string | null; url: string }): string {
  if (link.title) return link.title;
  const where = link.url.replace(/^https?:\/\/(www\.)?/, "").replace(/\/$/, "");
  return where.length > 60 ? `${where.slice(0, 59)}…` : where;
}

/**
 * The figures of one link's stats over `period` (a key of PERIODS): totals, the top three countries
 * and devices, and the clicks per routing rule and per A/B variant. The bot words them in the user's
 * language.
 */
export async function linkStatsFigures(deps: Deps, userId: number, linkId: number, period: string) {
  const link = await ownedLink(deps, userId, linkId);
  const { range, period: p } = await summaryRange(deps, [link], { period });
  const s = await statsOf(deps, [link], p, range);
  const geo = (await geoOf(deps, [link.id], range)).slice(0, 3);
  const devices = (await devicesOf(deps, [link.id], range)).devices.slice(0, 3);
  const referrers = (await referrersOf(deps, [link.id], range)).slice(0, 3);
  const routing = await routingStatsOf(deps, link, range);
  const all = routing.variants.reduce((n, v) => n + v.clicks, 0);
  const variantShares = new Map(
    withPercentages(new Map(routing.variants.map((v) => [String(v.index), v.clicks])), all).map((p) => [p.name, p.percentage]),
  );
  return {
    name: headOf(link),
    period: p ?? "all",
    trackingUrl: await trackingUrl(deps, link),
    totals: { clicks: s.totalClicks, unique: s.uniqueClicks, bots: s.botClicks, perDay: s.avgClicksPerDay },
    countries: geo.map((g) => ({ name: g.country, percentage: g.percentage })),
    devices: devices.map((d) => ({ name: d.name, percentage: d.percentage })),
    /** "" is a visit whose browser named no site (direct, an app, a QR code) */
    referrers: referrers.map((r) => ({ name: r.referrer, percentage: r.percentage })),
    rules: routing.rules.map((r) => ({ number: r.index + 1, clicks: r.clicks })),
    variants: routing.variants.map((v) => ({
      number: v.index + 1,
      url: v.url,
      clicks: v.clicks,
      unique: v.uniqueClicks,
      // to a tenth, adding up to 100 as the other shares do (1 and 7 clicks: 12.5 and 87.5, not 13 and 88)
      percentage: variantShares.get(String(v.index)) ?? 0,
    })),
  };
}
