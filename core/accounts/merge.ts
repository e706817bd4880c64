import { and, count, eq, getTableName, isNull, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { emailCodes, identities, refreshTokens, users, webauthnChallenges } from "../../db/schema";
import { Conflict } from "../errors";
import { OWNED_TABLES } from "./owned-tables";
import { activePlan, PLAN_RANK } from "./plans";
import type { UserRow } from "./users";
import { writeTransaction, type DbOrTx } from "../../db/transaction";

type Db = Deps["db"];

/** Sign-in providers an account can hold only one of: two accounts that both have one cannot merge. */
const SINGLE_PROVIDERS = ["telegram", "email"] as const;

/** 409 when `source` and `target` each have their own Telegram account or their own email (spec rule 5). */
export function assertMergeable(db: Pick<Db, "select">, sourceId: number, targetId: number): void {
  const providersOf = (id: number) =>
    new Set(db.select({ p: identities.provider }).from(identities).where(eq(identities.userId, id)).all().map((r) => r.p));
  const a = providersOf(sourceId);
  const b = providersOf(targetId);
  for (const p of SINGLE_PROVIDERS) {
    if (a.has(p) && b.has(p))
      throw new Conflict(
        p === "telegram"
          ? "This email is already linked to a different Telegram account"
          : "This Telegram account is already linked to a different email",
        p === "telegram" ? "email_linked_to_other_telegram" : "telegram_linked_to_other_email",
      );
  }
}

/**
 * The plan a merged account keeps: the more expensive active plan (starter < pro < business) with
 * its expiry; between equal paid plans, the later expiry (no expiry counts as latest).
 */
export function mergedPlan(source: UserRow, target: UserRow, now: Date): Pick<UserRow, "plan" | "planExpiresAt"> {
  const s = activePlan(source, now);
  const t = activePlan(target, now);
  const keep = { plan: target.plan, planExpiresAt: target.planExpiresAt };
  if (PLAN_RANK[s] > PLAN_RANK[t]) return { plan: source.plan, planExpiresAt: source.planExpiresAt };
  if (PLAN_RANK[s] === PLAN_RANK[t] && s !== "free") {
    const later = (x: Date | null) => (x === null ? Infinity : x.getTime());
    if (later(source.planExpiresAt) > later(target.planExpiresAt)) return { plan: source.plan, planExpiresAt: source.planExpiresAt };
  }
  return keep;
}

/**
 * Merges account `sourceId` into `targetId` in one transaction: every OWNED_TABLES row and every
 * identity moves to the target, the target keeps the better plan, the source's sessions, pending
 * codes and challenges end, and the source is marked `mergedIntoId` (it can no longer sign in).
 * Returns the target as it is afterwards. Throws 409 when the rules forbid the merge.
 */
export function mergeAccounts(deps: { db: DbOrTx; clock: Deps["clock"] }, sourceId: number, targetId: number): UserRow {
  const now = deps.clock.now();
  return writeTransaction(deps.db, (tx) => {
    const source = tx.select().from(users).where(eq(users.id, sourceId)).get();
    const target = tx.select().from(users).where(eq(users.id, targetId)).get();
    if (!source || !target || source.mergedIntoId || target.mergedIntoId || sourceId === targetId)
      throw new Conflict("These accounts cannot be merged", "merge_impossible");
    assertMergeable(tx, sourceId, targetId);
    for (const { table, owner, merge } of OWNED_TABLES) {
      if (merge) {
        merge(tx, sourceId, targetId);
        const left = tx.select({ n: count() }).from(table).where(eq(owner, sourceId)).get()?.n ?? 0;
        if (left > 0) throw new Error(`merge hook of ${getTableName(table)} left ${left} rows with the old owner`);
      } else tx.run(sql`update ${table} set ${sql.identifier(owner.name)} = ${targetId} where ${owner} = ${sourceId}`);
    }
    tx.update(identities).set({ userId: targetId }).where(eq(identities.userId, sourceId)).run();
    tx.delete(emailCodes).where(eq(emailCodes.userId, sourceId)).run();
    tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, sourceId)).run();
    // the source signs in no more: its refresh tokens end (and with them its sign-ins)
    tx.update(refreshTokens).set({ revokedAt: now }).where(and(eq(refreshTokens.userId, sourceId), isNull(refreshTokens.revokedAt))).run();
    const patch = {
      ...mergedPlan(source, target, now),
      msgrId: target.msgrId ?? source.msgrId,
      username: target.msgrId ? target.username : source.username ?? target.username,
      firstName: target.firstName ?? source.firstName,
      email: target.email ?? source.email,
    };
    tx.update(users).set({ mergedIntoId: targetId, msgrId: null, email: null, plan: "free", planExpiresAt: null }).where(eq(users.id, sourceId)).run();
    tx.update(users).set({ mergedIntoId: targetId }).where(eq(users.mergedIntoId, sourceId)).run();
    return tx.update(users).set(patch).where(eq(users.id, targetId)).returning().get();
  });
}
