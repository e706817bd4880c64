import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { first, transaction } from "../../db/async";
import { Conflict, NotFound } from "../errors";
import { getUser, sessionUser } from "./users";

/** The sign-in methods attached to an account: Telegram, email and each passkey. */
export async function listIdentities(deps: Pick<Deps, "asyncDb">, userId: number) {
  const { identities, passkeys } = deps.asyncDb.tables;
  const rows = await deps.asyncDb.select().from(identities).where(eq(identities.userId, userId)).orderBy(asc(identities.id));
  const keys = await deps.asyncDb.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id));
  return [
    ...rows.map((r) => ({ id: r.id, provider: r.provider, subject: r.subject, createdAt: r.createdAt.toISOString() })),
    ...keys.map((k) => ({ provider: "passkey" as const, subject: k.credentialId, name: k.name, createdAt: k.createdAt.toISOString() })),
  ];
}

/** GET /api/auth/me: the user, the plan in force and the linked identities. */
export async function accountOverview(deps: Pick<Deps, "asyncDb" | "clock">, userId: number) {
  return { ...sessionUser(deps, await getUser(deps, userId)), identities: await listIdentities(deps, userId) };
}

/**
 * Unlinks one of the account's Telegram or email identities (`id` from listIdentities). 404 for
 * another account's or a missing one; 409 `last_sign_in` when it is the account's only way to sign
 * in (passkeys count), so no account is left that nobody can open.
 */
export async function unlinkIdentity(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<void> {
  const { identities, passkeys, users } = deps.asyncDb.tables;
  const mine = and(eq(identities.id, id), eq(identities.userId, userId));
  await transaction(deps.asyncDb, async (tx) => {
    const identity = first(await tx.select().from(identities).where(mine));
    if (!identity) throw new NotFound("Sign-in method");
    // one statement: the delete happens only while the account keeps another way in
    const methods = sql`(select count(*) from ${identities} where ${identities.userId} = ${userId}) + (select count(*) from ${passkeys} where ${passkeys.userId} = ${userId})`;
    const gone = await tx
      .delete(identities)
      .where(and(mine, gt(methods, 1)))
      .returning({ id: identities.id });
    if (!gone.length)
      throw new Conflict("This is the account's only way to sign in: add another (an email or a passkey) first", "last_sign_in");
    // the account stops standing for that Telegram account or address: no notices go to the
    // Telegram chat any more, and it no longer counts as the account's person for channel rights
    if (identity.provider === "telegram")
      await tx
        .update(users)
        .set({ msgrId: null, username: null })
        .where(and(eq(users.id, userId), eq(users.msgrId, Number(identity.subject))));
    else if (identity.provider === "email")
      await tx
        .update(users)
        .set({ email: null })
        .where(and(eq(users.id, userId), eq(users.email, identity.subject)));
  });
}
