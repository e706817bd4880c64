import { and, count, desc, eq } from "drizzle-orm";
import { confirmPowers } from "../channels/powers";
import type { Deps } from "../deps";
import type { trackers } from "../../db/schema";
import { serializeOn, transaction } from "../../db/async";
import { ChatNotYours, FieldError, NotFound } from "../errors";
import { getUser } from "../accounts/users";
import { activePlan, assertWithinLimit, limitsOf } from "../accounts/plans";
import { validateWebhookTarget } from "../webhooks/validate";
import { isCategory, isCountry, isLanguage } from "./filters";
import { normaliseKeyword } from "./normalise";
import { parseQuery } from "./query";
import { validateSourceRefs } from "./sources";
import { invalidateTrackerIndex } from "./index-cache";

export type TrackerRow = typeof trackers.$inferSelect;

/** The create body of POST /api/tracking (snake_case, as in the spec); PATCH takes any subset. */
export interface TrackerInput {
  name?: string;
  keyword?: string;
  exact_match?: boolean;
  syntax?: "plain" | "query";
  word_forms?: boolean;
  skip_reposts?: boolean;
  watch_links?: boolean;
  minus_words?: string[] | null;
  search_channels?: boolean;
  search_chats?: boolean;
  filter_geo?: string | null;
  filter_language?: string | null;
  filter_category?: string | null;
  filter_min_subscribers?: number | null;
  include_sources?: string[] | null;
  exclude_sources?: string[] | null;
  notify_via?: "bot" | "webhook" | "chat";
  notify_chat_id?: string | number | null;
  notify_thread_id?: number | null;
  notify_every?: "instant" | "hour" | "day";
  webhook_url?: string | null;
  notify_on_delete?: boolean;
  is_enabled?: boolean;
}

const KEYWORD_MAX = 800;

/** KeywordTrackerResponse */
export function trackerResponse(t: TrackerRow) {
  return {
    id: t.id,
    name: t.name,
    keyword: t.keyword,
    exact_match: t.exactMatch,
    syntax: t.syntax,
    word_forms: t.wordForms,
    skip_reposts: t.skipReposts,
    watch_links: t.watchLinks,
    minus_words: t.minusWords ?? null,
    search_channels: t.searchChannels,
    search_chats: t.searchChats,
    filter_geo: t.filterGeo,
    filter_language: t.filterLanguage,
    filter_category: t.filterCategory,
    filter_min_subscribers: t.filterMinSubscribers,
    include_sources: t.includeSources ?? null,
    exclude_sources: t.excludeSources ?? null,
    notify_via: t.notifyVia,
    notify_chat_id: t.notifyChatId,
    notify_thread_id: t.notifyThreadId,
    notify_every: t.notifyEvery,
    webhook_url: t.webhookUrl,
    notify_on_delete: t.notifyOnDelete,
    is_enabled: t.isEnabled,
    total_matches: t.totalMatches,
    created_at: t.createdAt.toISOString(),
  };
}

/** Length in characters (code points), so an emoji counts as one, not as two UTF-16 units. */
const chars = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

function text(field: string, value: string, max: number): string {
  const v = value.trim();
  if (!v) throw new FieldError(field, "must not be empty");
  if (chars(v) > max) throw new FieldError(field, `must be at most ${max} characters`);
  return v;
}

function code(field: string, value: string | null | undefined, valid: (c: string) => boolean, fold: (c: string) => string, what: string) {
  if (value === undefined || value === null || value.trim() === "") return value === undefined ? undefined : null;
  const c = fold(value.trim());
  if (!valid(c)) throw new FieldError(field, `"${value}" is not ${what}`);
  return c;
}

/** Validates an input (all of it for create, the given fields for patch) into column values. */
function toColumns(input: TrackerInput): Partial<TrackerRow> {
  const out: Partial<TrackerRow> = {};
  if (input.name !== undefined) out.name = text("name", input.name, 100);
  if (input.keyword !== undefined) {
    if (chars(input.keyword) > KEYWORD_MAX) throw new FieldError("keyword", `must be at most ${KEYWORD_MAX} characters`);
    out.keyword = text("keyword", input.keyword, KEYWORD_MAX);
    if (!normaliseKeyword(out.keyword)) throw new FieldError("keyword", "must contain visible characters");
  }
  if (input.exact_match !== undefined) out.exactMatch = input.exact_match;
  if (input.syntax !== undefined) out.syntax = input.syntax;
  if (input.word_forms !== undefined) out.wordForms = input.word_forms;
  if (input.skip_reposts !== undefined) out.skipReposts = input.skip_reposts;
  if (input.watch_links !== undefined) out.watchLinks = input.watch_links;
  if (input.minus_words !== undefined) {
    const words = (input.minus_words ?? []).map((w) => w.trim()).filter((w) => normaliseKeyword(w));
    if (words.length > 50) throw new FieldError("minus_words", "at most 50 words");
    for (const w of words) if (chars(w) > 100) throw new FieldError("minus_words", `"${w.slice(0, 20)}…" is longer than 100 characters`);
    out.minusWords = words.length ? words : null;
  }
  if (input.search_channels !== undefined) out.searchChannels = input.search_channels;
  if (input.search_chats !== undefined) out.searchChats = input.search_chats;
  const geo = code("filter_geo", input.filter_geo, isCountry, (c) => c.toUpperCase(), "an ISO 3166-1 alpha-2 country code");
  if (geo !== undefined) out.filterGeo = geo;
  const lang = code("filter_language", input.filter_language, isLanguage, (c) => c.toLowerCase(), "an ISO 639-1 language code");
  if (lang !== undefined) out.filterLanguage = lang;
  const cat = code("filter_category", input.filter_category, isCategory, (c) => c.toLowerCase(), "a known category");
  if (cat !== undefined) out.filterCategory = cat;
  if (input.filter_min_subscribers !== undefined) {
    const n = input.filter_min_subscribers;
    if (n !== null && (!Number.isInteger(n) || n < 0 || n > 1e9))
      throw new FieldError("filter_min_subscribers", "must be a whole number from 0 to 1000000000");
    out.filterMinSubscribers = n;
  }
  if (input.include_sources !== undefined) out.includeSources = validateSourceRefs("include_sources", input.include_sources);
  if (input.exclude_sources !== undefined) out.excludeSources = validateSourceRefs("exclude_sources", input.exclude_sources);
  if (input.notify_via !== undefined) out.notifyVia = input.notify_via;
  if (input.notify_chat_id !== undefined) {
    const id = input.notify_chat_id === null ? null : String(input.notify_chat_id).trim();
    if (id !== null && !/^-?\d{1,20}$/.test(id)) throw new FieldError("notify_chat_id", "must be a Telegram chat id, e.g. -1001234567890");
    out.notifyChatId = id || null;
  }
  if (input.notify_thread_id !== undefined) {
    const n = input.notify_thread_id;
    if (n !== null && (!Number.isInteger(n) || n < 1 || n > 2 ** 31))
      throw new FieldError("notify_thread_id", "must be the id of a forum topic (a whole number from 1)");
    out.notifyThreadId = n;
  }
  if (input.notify_every !== undefined) out.notifyEvery = input.notify_every;
  if (input.webhook_url !== undefined) {
    const url = input.webhook_url?.trim() || null;
    if (url !== null) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new FieldError("webhook_url", "must be an absolute http(s) URL");
      }
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new FieldError("webhook_url", "must be an http(s) URL");
      if (url.length > 2048) throw new FieldError("webhook_url", "must be at most 2048 characters");
    }
    out.webhookUrl = url;
  }
  if (input.notify_on_delete !== undefined) out.notifyOnDelete = input.notify_on_delete;
  if (input.is_enabled !== undefined) out.isEnabled = input.is_enabled;
  return out;
}

/** Rules across fields, checked on the tracker as it would be after the change. */
async function checkWhole(
  deps: Pick<Deps, "asyncDb" | "config" | "clock" | "log" | "telegram" | "chatStandings">,
  userId: number,
  next: Partial<TrackerRow>,
  webhookChanged: boolean,
) {
  if (next.searchChannels === false && next.searchChats === false)
    throw new FieldError("search_channels", "at least one of search_channels and search_chats must be true");
  if (next.syntax === "query") parseQuery(next.keyword!); // 400 invalid_query naming the position
  if (next.notifyVia === "webhook") {
    if (!next.webhookUrl) throw new FieldError("webhook_url", "is required when notify_via is 'webhook'");
    if (webhookChanged) await validateWebhookTarget(deps, next.webhookUrl, "POST", "webhook_url");
  }
  if (next.notifyVia === "chat") {
    if (!next.notifyChatId)
      throw new FieldError("notify_chat_id", "is required when notify_via is 'chat': the chat id of one of your channels or groups");
    const { channels } = deps.asyncDb.tables;
    const [own] = await deps.asyncDb
      .select({ id: channels.id })
      .from(channels)
      .where(and(eq(channels.userId, userId), eq(channels.chatId, next.notifyChatId), eq(channels.botIsAdmin, true)))
      .limit(1);
    if (!own) throw new ChatNotYours();
    // and the account's Telegram user still runs it (403 saying why otherwise)
    await confirmPowers(deps, userId, next.notifyChatId);
  }
}

async function countTrackers(deps: Pick<Deps, "asyncDb">, userId: number): Promise<number> {
  const { trackers } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb.select({ n: count() }).from(trackers).where(eq(trackers.userId, userId));
  return Number(row?.n ?? 0);
}

/** {current, max, plan} for GET /api/tracking/limits. */
export async function trackerLimits(deps: Pick<Deps, "asyncDb" | "config" | "clock">, userId: number) {
  const user = await getUser(deps, userId);
  return { current: await countTrackers(deps, userId), max: limitsOf(deps, user).trackers, plan: activePlan(user, deps.clock.now()) };
}

/**
 * Creates a tracker: validates (400), checks the plan's tracker count (403 plan_limit), validates a
 * webhook target with a test request, applies the spec's defaults.
 */
export async function createTracker(deps: Deps, userId: number, input: TrackerInput): Promise<TrackerRow> {
  if (input.name === undefined) throw new FieldError("name", "is required");
  if (input.keyword === undefined) throw new FieldError("keyword", "is required");
  const cols = toColumns(input);
  const next = { exactMatch: false, searchChannels: true, searchChats: true, notifyVia: "bot" as const, notifyOnDelete: false, ...cols };
  assertWithinLimit(deps, await getUser(deps, userId), "trackers", await countTrackers(deps, userId));
  await checkWhole(deps, userId, next, true);
  // checked again after the (async) webhook validation, in the transaction that inserts, with the
  // user's tracker count held still: creates at once on any nodes cannot pass the limit together
  const { trackers } = deps.asyncDb.tables;
  const row = await transaction(deps.asyncDb, async (tx) => {
    await serializeOn(tx, `trackers-of:${userId}`);
    assertWithinLimit(deps, await getUser({ asyncDb: tx }, userId), "trackers", await countTrackers({ asyncDb: tx }, userId));
    const [made] = await tx
      .insert(trackers)
      .values({ ...next, name: next.name!, keyword: next.keyword!, userId, createdAt: deps.clock.now() })
      .returning();
    return made!;
  });
  await invalidateTrackerIndex(deps, [row.id]);
  return row;
}

/** A tracker of this user; 404 for unknown ids and other users' trackers. */
export async function getTracker(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<TrackerRow> {
  const { trackers } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .select()
    .from(trackers)
    .where(and(eq(trackers.id, id), eq(trackers.userId, userId)))
    .limit(1);
  if (!row) throw new NotFound("Tracker");
  return row;
}

export async function listTrackers(deps: Pick<Deps, "asyncDb">, userId: number): Promise<TrackerRow[]> {
  const { trackers } = deps.asyncDb.tables;
  return deps.asyncDb.select().from(trackers).where(eq(trackers.userId, userId)).orderBy(desc(trackers.id));
}

/** Applies any subset of the create fields with the same validation. */
export async function updateTracker(deps: Deps, userId: number, id: number, input: TrackerInput): Promise<TrackerRow> {
  const current = await getTracker(deps, userId, id);
  const cols = toColumns(input);
  const next = { ...current, ...cols };
  const webhookChanged = next.notifyVia === "webhook" && (current.notifyVia !== "webhook" || next.webhookUrl !== current.webhookUrl);
  await checkWhole(deps, userId, next, webhookChanged);
  if (!Object.keys(cols).length) return current;
  const { trackers } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .update(trackers)
    .set(cols)
    .where(and(eq(trackers.id, id), eq(trackers.userId, userId)))
    .returning();
  if (!row) throw new NotFound("Tracker");
  await invalidateTrackerIndex(deps, [id]);
  return row;
}

export async function setTrackerEnabled(deps: Deps, userId: number, id: number, enabled: boolean): Promise<TrackerRow> {
  const { trackers } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .update(trackers)
    .set({ isEnabled: enabled })
    .where(and(eq(trackers.id, id), eq(trackers.userId, userId)))
    .returning();
  if (!row) throw new NotFound("Tracker");
  await invalidateTrackerIndex(deps, [id]);
  return row;
}

/** Deletes a tracker and its matches. */
export async function deleteTracker(deps: Deps, userId: number, id: number): Promise<void> {
  const { trackers } = deps.asyncDb.tables;
  const gone = await deps.asyncDb
    .delete(trackers)
    .where(and(eq(trackers.id, id), eq(trackers.userId, userId)))
    .returning({ id: trackers.id });
  if (!gone.length) throw new NotFound("Tracker");
  await invalidateTrackerIndex(deps, [id]);
}
