import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import type { trackingSources } from "../../db/schema";
import { FieldError, NotFound } from "../errors";
import { isCategory, isCountry } from "./filters";

export type SourceRow = typeof trackingSources.$inferSelect;
export type ChatType = "channel" | "group" | "supergroup";

/** A reference to a chat as users write it: by username or by numeric chat id. */
export type SourceRef = { username: string } | { chatId: string };

const USERNAME = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;

/**
 * Parses `@username`, `username`, `https://t.me/username[/post]`, `t.me/c/<id>[/post]` or a numeric
 * chat id (`-1001234567890`; a bare positive id is read as the `-100…` channel/supergroup form).
 * Returns null when it is none of these.
 */
export function parseSourceRef(input: string): SourceRef | null {
  const s = input.trim();
  const link = /^(?:https?:\/\/)?(?:www\.)?(?:t\.me|telegram\.me)\/(?:s\/)?(c\/)?([^/?#]+)(?:\/\d+)?\/?(?:[?#].*)?$/i.exec(s);
  if (link) {
    if (link[1]) return /^\d+$/.test(link[2]!) ? { chatId: `-100${link[2]}` } : null;
    return USERNAME.test(link[2]!) ? { username: link[2]!.toLowerCase() } : null;
  }
  if (/^-\d{1,20}$/.test(s)) return { chatId: s };
  if (/^\d{1,20}$/.test(s)) return { chatId: `-100${s}` };
  const name = s.startsWith("@") ? s.slice(1) : s;
  return USERNAME.test(name) ? { username: name.toLowerCase() } : null;
}

/** Validates a list of source references (400 on `field` naming the first bad entry). */
export function validateSourceRefs(field: string, list: string[] | null | undefined): string[] | null {
  if (list === null || list === undefined) return null;
  if (list.length > 100) throw new FieldError(field, "at most 100 sources");
  const out = list.map((s) => s.trim()).filter(Boolean);
  for (const entry of out)
    if (!parseSourceRef(entry)) throw new FieldError(field, `"${entry}" is not a @username, numeric chat id or t.me link`);
  return out.length ? out : null;
}

/** True when `source` is the chat `ref` names. */
export function refMatches(ref: SourceRef, source: { chatId: string; username: string | null }): boolean {
  return "username" in ref ? source.username?.toLowerCase() === ref.username : source.chatId === ref.chatId;
}

/** The public link to a post: t.me/<username>/<id>, or t.me/c/<id>/<id> for private channels and supergroups. */
export function postUrl(chat: { chatId: string; username: string | null }, messageId: number): string | null {
  if (chat.username) return `https://t.me/${chat.username}/${messageId}`;
  if (chat.chatId.startsWith("-100")) return `https://t.me/c/${chat.chatId.slice(4)}/${messageId}`;
  return null;
}

export interface ChatInfo {
  chatId: string;
  type: ChatType;
  title?: string | null;
  username?: string | null;
  via?: "bot" | "mtproto";
}

/**
 * Records (or refreshes) a chat as a source. `memberCount` and `isActive` are only changed when
 * given; title and username follow the latest update. Returns the row.
 */
export async function upsertSource(
  deps: Pick<Deps, "asyncDb" | "clock">,
  chat: ChatInfo,
  extra: { memberCount?: number | null; isActive?: boolean } = {},
): Promise<SourceRow> {
  const { trackingSources } = deps.asyncDb.tables;
  const set: { type: ChatType; title: string | null; username: string | null; memberCount?: number | null; isActive?: boolean } = {
    type: chat.type,
    title: chat.title ?? null,
    username: chat.username ?? null,
  };
  if (extra.memberCount !== undefined) set.memberCount = extra.memberCount;
  if (extra.isActive !== undefined) set.isActive = extra.isActive;
  const [row] = await deps.asyncDb
    .insert(trackingSources)
    .values({ chatId: chat.chatId, via: chat.via ?? "bot", createdAt: deps.clock.now(), isActive: true, ...set })
    .onConflictDoUpdate({ target: trackingSources.chatId, set })
    .returning();
  return row!;
}

/** The source of a chat, refreshed only when its title or username changed (cheap on every message). */
export async function sourceForPost(deps: Pick<Deps, "asyncDb" | "clock">, chat: ChatInfo): Promise<SourceRow> {
  const { trackingSources } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb.select().from(trackingSources).where(eq(trackingSources.chatId, chat.chatId)).limit(1);
  if (row && row.isActive && row.title === (chat.title ?? null) && row.username === (chat.username ?? null)) return row;
  return upsertSource(deps, chat, { isActive: true });
}

/** Finds a source by @username, numeric id or t.me link; 404 when the service does not know it. */
async function findSource(deps: Pick<Deps, "asyncDb">, input: string): Promise<SourceRow> {
  const ref = parseSourceRef(input);
  if (!ref) throw new FieldError("chat", `"${input}" is not a @username, numeric chat id or t.me link`);
  const { trackingSources } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .select()
    .from(trackingSources)
    .where("username" in ref ? sql`lower(${trackingSources.username}) = ${ref.username}` : eq(trackingSources.chatId, ref.chatId))
    .orderBy(trackingSources.id)
    .limit(1);
  if (!row) throw new NotFound("Source");
  return row;
}

/**
 * Operator metadata used by filter_geo and filter_category. `null` clears a value; codes are
 * validated against GET /api/tracking/filters.
 */
export async function setSourceMetadata(
  deps: Pick<Deps, "asyncDb">,
  input: string,
  meta: { geo?: string | null; category?: string | null },
): Promise<SourceRow> {
  const source = await findSource(deps, input);
  const { trackingSources } = deps.asyncDb.tables;
  const set: Partial<SourceRow> = {};
  if (meta.geo !== undefined) {
    const geo = meta.geo?.toUpperCase() ?? null;
    if (geo !== null && !isCountry(geo)) throw new FieldError("geo", `"${meta.geo}" is not an ISO 3166-1 alpha-2 country code`);
    set.geo = geo;
  }
  if (meta.category !== undefined) {
    const category = meta.category?.toLowerCase() ?? null;
    if (category !== null && !isCategory(category)) throw new FieldError("category", `"${meta.category}" is not a known category`);
    set.category = category;
  }
  if (!Object.keys(set).length) return source;
  const [row] = await deps.asyncDb.update(trackingSources).set(set).where(eq(trackingSources.id, source.id)).returning();
  return row!;
}

/**
 * A group upgraded to a supergroup gets a new chat id: the source keeps its metadata under the new
 * id (unless a row for it already exists).
 */
export async function migrateSource(deps: Pick<Deps, "asyncDb">, fromChatId: string, toChatId: string): Promise<void> {
  const { trackingSources } = deps.asyncDb.tables;
  if (
    (await deps.asyncDb.select({ id: trackingSources.id }).from(trackingSources).where(eq(trackingSources.chatId, toChatId)).limit(1))
      .length
  )
    return;
  await deps.asyncDb.update(trackingSources).set({ chatId: toChatId, type: "supergroup" }).where(eq(trackingSources.chatId, fromChatId));
}

/**
 * Refreshes the member counts of active sources that came through `via` with `fetchCount` (e.g.
 * the Bot API's getChatMemberCount); a chat that fails keeps its old count. Returns how many changed.
 */
export async function refreshMemberCounts(
  deps: Pick<Deps, "asyncDb" | "log">,
  via: "bot" | "mtproto",
  fetchCount: (chatId: string) => Promise<number>,
): Promise<number> {
  const { trackingSources } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .select()
    .from(trackingSources)
    .where(and(eq(trackingSources.via, via), eq(trackingSources.isActive, true)))
    .orderBy(trackingSources.id);
  let changed = 0;
  for (const row of rows) {
    try {
      const n = await fetchCount(row.chatId);
      if (n !== row.memberCount) {
        await deps.asyncDb.update(trackingSources).set({ memberCount: n }).where(eq(trackingSources.id, row.id));
        changed++;
      }
    } catch (e) {
      deps.log.warn(`tracking: member count of ${row.chatId} not refreshed: ${(e as Error).message}`);
    }
  }
  return changed;
}
