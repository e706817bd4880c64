import { and, asc, count, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { Conflict, NotFound } from "../errors";
import { identities, passkeys } from "../../db/schema";
import { getUser, sessionUser } from "./users";

/** The sign-in methods attached to an account: Telegram, email and each passkey. */
export function listIdentities(deps: Pick<Deps, "db">, userId: number) {
  const rows = deps.db.select().from(identities).where(eq(identities.userId, userId)).orderBy(asc(identities.id)).all();
  const keys = deps.db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id)).all();
  return [
    ...rows.map((r) => ({ id: r.id, provider: r.provider, subject: r.subject, createdAt: r.createdAt.toISOString() })),
    ...keys.map((k) => ({ provider: "passkey" as const, subject: k.credentialId, name: k.name, createdAt: k.createdAt.toISOString() })),
  ];
}

/** GET /api/auth/me: the user, the plan in force and the linked identities. */
export function accountOverview(deps: Pick<Deps, "db" | "clock">, userId: number) {
  return { ...sessionUser(deps, getUser(deps, userId)), identities: listIdentities(deps, userId) };
}

/**
 * Unlinks one of the account's Telegram or email identities (`id` from listIdentities). 404 for
 * another account's or a missing one; 409 `last_sign_in` when it is the account's only way to sign
 * in (passkeys count), so no account is left that nobody can open.
 */
export function unlinkIdentity(deps: Pick<Deps, "db">, userId: number, id: number): void {
  const row = deps.db.select({ id: identities.id }).from(identities).where(and(eq(identities.id, id), eq(identities.userId, userId))).get();
  if (!row) throw new NotFound("Sign-in method");
  const methods = deps.db.select({ n: count() }).from(identities).where(eq(identities.userId, userId)).get()!.n
    + deps.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId)).get()!.n;
  if (methods <= 1) throw new Conflict("This is the account's only way to sign in: add another (an email or a passkey) first", "last_sign_in");
  deps.db.delete(identities).where(eq(identities.id, id)).run();
}
