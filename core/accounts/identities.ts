import { asc, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { identities, passkeys } from "../../db/schema";
import { getUser, sessionUser } from "./users";

/** The sign-in methods attached to an account: Telegram, email and each passkey. */
export function listIdentities(deps: Pick<Deps, "db">, userId: number) {
  const rows = deps.db.select().from(identities).where(eq(identities.userId, userId)).orderBy(asc(identities.id)).all();
  const keys = deps.db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id)).all();
  return [
    ...rows.map((r) => ({ provider: r.provider, subject: r.subject, createdAt: r.createdAt.toISOString() })),
    ...keys.map((k) => ({ provider: "passkey" as const, subject: k.credentialId, name: k.name, createdAt: k.createdAt.toISOString() })),
  ];
}

/** GET /api/auth/me: the user, the plan in force and the linked identities. */
export function accountOverview(deps: Pick<Deps, "db" | "clock">, userId: number) {
  return { ...sessionUser(deps, getUser(deps, userId)), identities: listIdentities(deps, userId) };
}
