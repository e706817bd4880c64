import { and, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { identities, users } from "../../db/schema";
import { NotFound } from "../errors";
import { subscriptionOf } from "./plans";
import { writeTransaction, type DbOrTx } from "../../db/transaction";

export type UserRow = typeof users.$inferSelect;

/** The User object of the spec: {id, msgrId, username}. */
export function publicUser(u: UserRow) {
  return { id: u.id, msgrId: u.msgrId ?? null, username: u.username ?? null, firstName: u.firstName ?? null, email: u.email ?? null };
}

export function getUser(deps: { db: DbOrTx }, id: number): UserRow {
  const u = deps.db.select().from(users).where(eq(users.id, id)).get();
  if (!u || u.mergedIntoId) throw new NotFound("User");
  return u;
}

export function findUserByIdentity(deps: { db: DbOrTx }, provider: "telegram" | "email" | "passkey", subject: string): UserRow | undefined {
  const row = deps.db
    .select({ user: users })
    .from(identities)
    .innerJoin(users, eq(users.id, identities.userId))
    .where(and(eq(identities.provider, provider), eq(identities.subject, subject)))
    .get();
  return row?.user;
}

export interface TelegramProfile {
  id: number;
  username?: string | null;
  firstName?: string | null;
}

/** Finds the user with this Telegram identity, creating user and identity on first contact; refreshes the profile. */
export function upsertTelegramUser(deps: Pick<Deps, "db" | "clock">, tg: TelegramProfile): UserRow {
  return writeTransaction(deps.db, (tx) => {
    const existing = findUserByIdentity({ db: tx }, "telegram", String(tg.id));
    if (existing) {
      const patch = { username: tg.username ?? existing.username, firstName: tg.firstName ?? existing.firstName };
      if (patch.username !== existing.username || patch.firstName !== existing.firstName)
        tx.update(users).set(patch).where(eq(users.id, existing.id)).run();
      return { ...existing, ...patch };
    }
    const user = tx
      .insert(users)
      .values({ username: tg.username ?? null, firstName: tg.firstName ?? null, msgrId: tg.id, createdAt: deps.clock.now() })
      .returning()
      .get();
    tx.insert(identities).values({ userId: user.id, provider: "telegram", subject: String(tg.id), createdAt: deps.clock.now() }).run();
    return user;
  });
}

/** Finds the user with this email identity, creating them on first verified code. */
export function upsertEmailUser(deps: Pick<Deps, "db" | "clock">, email: string): UserRow {
  const normalized = email.trim().toLowerCase();
  return writeTransaction(deps.db, (tx) => {
    const existing = findUserByIdentity({ db: tx }, "email", normalized);
    if (existing) return existing;
    const user = tx.insert(users).values({ email: normalized, createdAt: deps.clock.now() }).returning().get();
    tx.insert(identities).values({ userId: user.id, provider: "email", subject: normalized, createdAt: deps.clock.now() }).run();
    return user;
  });
}

/** The login response pieces shared by every sign-in method. */
export function sessionUser(deps: Pick<Deps, "clock">, u: UserRow) {
  return { user: publicUser(u), subscription: subscriptionOf(u, deps.clock.now()) };
}
