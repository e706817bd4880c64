import { and, count, eq, getTableName, isNull } from "drizzle-orm";
import type { Deps } from "../deps";
import { Conflict } from "../errors";
import { OWNED_TABLES } from "./owned-tables";
import { activePlan, PLAN_RANK } from "./plans";
import type { UserRow } from "./users";
import { serializeOn, transaction, type AsyncDbOrTx } from "../../db/async";

/** Sign-in providers an account can hold only one of: two accounts that both have one cannot merge. */
const SINGLE_PROVIDERS = ["telegram", "email"] as const;

/** 409 when `source` and `target` each have their own Telegram account or their own email (spec rule 5). */
export async function assertMergeable(db: AsyncDbOrTx, sourceId: number, targetId: number): Promise<void> {
  const { identities } = db.tables;
  const providersOf = async (id: number) =>
    new Set((await db.select({ p: identities.provider }).from(identities).where(eq(identities.userId, id))).map((r) => r.p));
  const a = await providersOf(sourceId);
  const b = await providersOf(targetId);
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
export async function mergeAccounts(
  deps: { asyncDb: AsyncDbOrTx; clock: Deps["clock"] },
  sourceId: number,
  targetId: number,
): Promise<UserRow> {
  const now = deps.clock.now();
  const { emailCodes, identities, refreshTokens, users, webauthnChallenges } = deps.asyncDb.tables;
  return transaction(deps.asyncDb, async (tx) => {
    // both accounts stay still while they merge (a second merge or link of either waits, on every node)
    for (const id of [sourceId, targetId].sort((a, b) => a - b)) await serializeOn(tx, `account:${id}`);
    const [source] = await tx.select().from(users).where(eq(users.id, sourceId)).limit(1);
    const [target] = await tx.select().from(users).where(eq(users.id, targetId)).limit(1);
    if (!source || !target || source.mergedIntoId || target.mergedIntoId || sourceId === targetId)
      throw new Conflict("These accounts cannot be merged", "merge_impossible");
    await assertMergeable(tx, sourceId, targetId);
    for (const { key, merge } of OWNED_TABLES) {
      const table = tx.tables[key] as typeof tx.tables.links;
      if (merge) {
        await merge(tx, sourceId, targetId);
        const [left] = await tx.select({ n: count() }).from(table).where(eq(table.userId, sourceId));
        if (Number(left?.n ?? 0) > 0) throw new Error(`merge hook of ${getTableName(table)} left ${left!.n} rows with the old owner`);
      } else await tx.update(table).set({ userId: targetId }).where(eq(table.userId, sourceId));
    }
    await tx.update(identities).set({ userId: targetId }).where(eq(identities.userId, sourceId));
    await tx.delete(emailCodes).where(eq(emailCodes.userId, sourceId));
    await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, sourceId));
    // the source signs in no more: its refresh tokens end (and with them its sign-ins)
    await tx
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.userId, sourceId), isNull(refreshTokens.revokedAt)));
    const patch = {
      ...mergedPlan(source, target, now),
      msgrId: target.msgrId ?? source.msgrId,
      username: target.msgrId ? target.username : (source.username ?? target.username),
      firstName: target.firstName ?? source.firstName,
      email: target.email ?? source.email,
    };
    await tx
      .update(users)
      .set({ mergedIntoId: targetId, msgrId: null, email: null, plan: "free", planExpiresAt: null })
      .where(eq(users.id, sourceId));
    await tx.update(users).set({ mergedIntoId: targetId }).where(eq(users.mergedIntoId, sourceId));
    const [merged] = await tx.update(users).set(patch).where(eq(users.id, targetId)).returning();
    return merged!;
  });
}
