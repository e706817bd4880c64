import { and, eq, sql } from "drizzle-orm";
import { PLANS, type Plan } from "../../config-plans";
import type { Deps } from "../deps";
import { first } from "../../db/async";
import { Conflict, FieldError, NotFound, ValidationError } from "../errors";
import { findUserByIdentity, upsertEmailUser, type UserRow } from "../accounts/users";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Finds a user by numeric id, email address or @username (case-insensitive). Merged accounts
 * resolve to the account they were merged into. Throws NotFound, or ValidationError when a
 * username is ambiguous.
 */
export async function resolveUserRef(deps: Pick<Deps, "asyncDb">, ref: string): Promise<UserRow> {
  const r = ref.trim();
  const db = deps.asyncDb;
  const { users } = db.tables;
  const byId = async (id: number) => first(await db.select().from(users).where(eq(users.id, id)));
  let user: UserRow | undefined;
  if (/^\d+$/.test(r)) user = await byId(Number(r));
  else if (r.startsWith("@")) {
    const found = (
      await db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = ${r.slice(1).toLowerCase()}`)
    ).filter((u) => !u.mergedIntoId);
    if (found.length > 1) throw new ValidationError(`${r} matches users ${found.map((u) => u.id).join(", ")}; use the id`);
    user = found[0];
  } else if (EMAIL.test(r)) {
    const email = r.toLowerCase();
    const { identities } = db.tables;
    const byIdentity = first(
      await db
        .select({ user: users })
        .from(identities)
        .innerJoin(users, eq(users.id, identities.userId))
        .where(and(eq(identities.provider, "email"), eq(identities.subject, email))),
    );
    user = byIdentity?.user ?? first(await db.select().from(users).where(eq(users.email, email)));
  } else throw new ValidationError(`"${r}" is not a user id, an email address or an @username`);
  for (let hops = 0; user?.mergedIntoId && hops < 10; hops++) {
    const into: number = user.mergedIntoId;
    user = await byId(into);
  }
  if (!user) throw new NotFound(`User ${r}`);
  return user;
}

/** Sets a user's plan; `days` gives an expiry counted from now, none means the plan does not expire. */
export async function setPlan(deps: Pick<Deps, "asyncDb" | "clock">, userId: number, plan: string, days?: number | null): Promise<UserRow> {
  if (!PLANS.includes(plan as Plan)) throw new FieldError("plan", `unknown plan "${plan}"; choose one of ${PLANS.join(", ")}`);
  if (days != null && (!Number.isInteger(days) || days < 1 || days > 36500))
    throw new FieldError("days", "must be a whole number of days from 1 to 36500");
  if (plan === "free" && days != null) throw new FieldError("days", "the free plan does not expire");
  const planExpiresAt = days != null ? new Date(deps.clock.now().getTime() + days * 86_400_000) : null;
  const { users } = deps.asyncDb.tables;
  const row = first(
    await deps.asyncDb
      .update(users)
      .set({ plan: plan as Plan, planExpiresAt })
      .where(eq(users.id, userId))
      .returning(),
  );
  if (!row) throw new NotFound("User");
  return row;
}

/** Creates an email account (as if the address had been verified). Refuses an address already in use. */
export async function createEmailUser(deps: Pick<Deps, "asyncDb" | "clock">, email: string): Promise<UserRow> {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL.test(normalized)) throw new FieldError("email", `"${email}" is not an email address`);
  const { users } = deps.asyncDb.tables;
  const existing =
    (await findUserByIdentity(deps, "email", normalized)) ??
    first(await deps.asyncDb.select().from(users).where(eq(users.email, normalized)));
  if (existing) throw new Conflict(`${normalized} already belongs to user ${existing.id}`);
  return upsertEmailUser(deps, normalized);
}

/** A one-line description of a user for operator output. */
export function describeUser(u: UserRow): string {
  const who = [u.username ? `@${u.username}` : null, u.email].filter(Boolean).join(", ");
  return `user ${u.id}${who ? ` (${who})` : ""}`;
}
