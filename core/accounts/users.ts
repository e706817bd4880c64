import { languageFor, type Language } from "../i18n/translate";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import { NotFound } from "../errors";
import { PLAN_RANK, subscriptionOf } from "./plans";
import { serializeOn, transaction, type AsyncDbOrTx, type Tables } from "../../db/async";

export type UserRow = Tables["users"]["$inferSelect"];

/** The User object of the spec: {id, msgrId, username}. */
export function publicUser(u: UserRow) {
  return { id: u.id, msgrId: u.msgrId ?? null, username: u.username ?? null, firstName: u.firstName ?? null, email: u.email ?? null };
}

/**
 * An account by id (a person, or a team workspace). A team has no plan of its own: it carries its
 * owners' best plan in force, so every limit read from the row is the workspace's.
 */
export async function getUser(deps: { asyncDb: AsyncDbOrTx }, id: number): Promise<UserRow> {
  const { users } = deps.asyncDb.tables;
  const [u] = await deps.asyncDb.select().from(users).where(eq(users.id, id)).limit(1);
  if (!u || u.mergedIntoId) throw new NotFound("User");
  return u.kind === "team" ? { ...u, ...(await ownersPlan(deps.asyncDb, u.id)) } : u;
}

/**
 * The best plan an owner of a team holds (free when none pays). Expiry is left to the reader, which
 * knows the time (activePlan): of two owners on one plan, the later expiry wins.
 */
async function ownersPlan(db: AsyncDbOrTx, teamId: number): Promise<Pick<UserRow, "plan" | "planExpiresAt">> {
  const { users, workspaceMembers } = db.tables;
  const owners = await db
    .select({ plan: users.plan, planExpiresAt: users.planExpiresAt })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, teamId), eq(workspaceMembers.role, "owner")));
  const until = (o: { planExpiresAt: Date | null }) => o.planExpiresAt?.getTime() ?? Number.MAX_SAFE_INTEGER;
  owners.sort((a, b) => PLAN_RANK[b.plan] - PLAN_RANK[a.plan] || until(b) - until(a));
  return owners[0] ?? { plan: "free", planExpiresAt: null };
}

export async function findUserByIdentity(
  deps: { asyncDb: AsyncDbOrTx },
  provider: "telegram" | "email" | "passkey",
  subject: string,
): Promise<UserRow | undefined> {
  const { identities, users } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .select({ user: users })
    .from(identities)
    .innerJoin(users, eq(users.id, identities.userId))
    .where(and(eq(identities.provider, provider), eq(identities.subject, subject)))
    .limit(1);
  return row?.user;
}

export interface TelegramProfile {
  id: number;
  username?: string | null;
  firstName?: string | null;
  /** the Telegram app's language_code, when the update or the sign-in data carries it */
  appLanguage?: string | null;
}

/**
 * Finds the user with this Telegram identity, creating user and identity on first contact; refreshes
 * the profile. Two first contacts at once (two nodes) make one user: the identity is the key.
 */
export async function upsertTelegramUser(deps: Pick<Deps, "asyncDb" | "clock">, tg: TelegramProfile): Promise<UserRow> {
  const { identities, users } = deps.asyncDb.tables;
  const subject = String(tg.id);
  const fresh = (u: UserRow) =>
    u.username === (tg.username ?? u.username) &&
    u.firstName === (tg.firstName ?? u.firstName) &&
    u.appLanguage === (tg.appLanguage ?? u.appLanguage);
  // the common case (a known user, profile unchanged) needs no transaction
  const known = await findUserByIdentity(deps, "telegram", subject);
  if (known && fresh(known)) return known;
  return transaction(deps.asyncDb, async (tx) => {
    await serializeOn(tx, `identity:telegram:${subject}`);
    const existing = await findUserByIdentity({ asyncDb: tx }, "telegram", subject);
    if (existing) {
      const patch = {
        username: tg.username ?? existing.username,
        firstName: tg.firstName ?? existing.firstName,
        appLanguage: tg.appLanguage ?? existing.appLanguage,
      };
      if (patch.username !== existing.username || patch.firstName !== existing.firstName || patch.appLanguage !== existing.appLanguage)
        await tx.update(users).set(patch).where(eq(users.id, existing.id));
      return { ...existing, ...patch };
    }
    const [user] = await tx
      .insert(users)
      .values({
        username: tg.username ?? null,
        firstName: tg.firstName ?? null,
        appLanguage: tg.appLanguage ?? null,
        msgrId: tg.id,
        createdAt: deps.clock.now(),
      })
      .returning();
    await tx.insert(identities).values({ userId: user!.id, provider: "telegram", subject, createdAt: deps.clock.now() });
    return user!;
  });
}

/** Finds the user with this email identity, creating them on first verified code. */
export async function upsertEmailUser(deps: Pick<Deps, "asyncDb" | "clock">, email: string): Promise<UserRow> {
  const { identities, users } = deps.asyncDb.tables;
  const normalized = email.trim().toLowerCase();
  return transaction(deps.asyncDb, async (tx) => {
    await serializeOn(tx, `identity:email:${normalized}`);
    const existing = await findUserByIdentity({ asyncDb: tx }, "email", normalized);
    if (existing) return existing;
    const [user] = await tx.insert(users).values({ email: normalized, createdAt: deps.clock.now() }).returning();
    await tx.insert(identities).values({ userId: user!.id, provider: "email", subject: normalized, createdAt: deps.clock.now() });
    return user!;
  });
}

/** The login response pieces shared by every sign-in method. */
export function sessionUser(deps: Pick<Deps, "clock">, u: UserRow) {
  return { user: publicUser(u), subscription: subscriptionOf(u, deps.clock.now()) };
}

export type { Language };

/** Stores the user's chosen language (null: follow the Telegram app's language again). */
export async function setUserLanguage(deps: { asyncDb: AsyncDbOrTx }, userId: number, language: Language | null): Promise<void> {
  const { users } = deps.asyncDb.tables;
  await deps.asyncDb.update(users).set({ language }).where(eq(users.id, userId));
}

/** The language the user chose (null: none, the Telegram app's applies) and the one the service speaks to them. */
export async function languageOf(db: AsyncDbOrTx, userId: number): Promise<{ chosen: Language | null; effective: Language }> {
  const { users } = db.tables;
  const [row] = await db.select({ language: users.language, app: users.appLanguage }).from(users).where(eq(users.id, userId)).limit(1);
  return { chosen: row?.language ?? null, effective: languageFor(row?.language, row?.app) };
}

/**
 * The private chat with the bot of the person a workspace's notices go to, and the language the bot
 * speaks to them: the account's own for a person (null without Telegram); for a team, its first
 * owner's (until a team chat is chosen as the destination).
 */
export async function ownerChat(db: AsyncDbOrTx, userId: number): Promise<{ chatId: number | null; lang: Language }> {
  const { users, workspaceMembers } = db.tables;
  const [row] = await db
    .select({ msgrId: users.msgrId, language: users.language, app: users.appLanguage, kind: users.kind })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (row?.kind === "team") {
    const [owner] = await db
      .select({ userId: workspaceMembers.userId })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, userId), eq(workspaceMembers.role, "owner")))
      .orderBy(asc(workspaceMembers.addedAt), asc(workspaceMembers.userId))
      .limit(1);
    if (owner) return ownerChat(db, owner.userId);
  }
  return { chatId: row?.msgrId ?? null, lang: languageFor(row?.language, row?.app) };
}

/**
 * The Telegram users who stand for an account in its chats: a person's own; a team's members' who
 * may change things there (editors and up), in the order they joined. A chat belongs to a workspace
 * while one of them administers it.
 */
export async function telegramPeopleOf(db: AsyncDbOrTx, userId: number): Promise<number[]> {
  const { users, workspaceMembers } = db.tables;
  const [row] = await db.select({ msgrId: users.msgrId, kind: users.kind }).from(users).where(eq(users.id, userId)).limit(1);
  if (row?.kind !== "team") return row?.msgrId ? [row.msgrId] : [];
  const people = await db
    .select({ msgrId: users.msgrId })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, userId), inArray(workspaceMembers.role, ["owner", "admin", "editor"])))
    .orderBy(asc(workspaceMembers.addedAt), asc(workspaceMembers.userId));
  return people.flatMap((p) => (p.msgrId ? [p.msgrId] : []));
}
