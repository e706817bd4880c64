import { and, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { Conflict } from "../errors";
import { verifyLoginWidget, type LoginWidgetData } from "./telegram-auth";
import { assertMergeable, mergeAccounts } from "./merge";
import { findUserByIdentity, getUser, publicUser, type TelegramProfile, type UserRow } from "./users";
import { serializeOn, transaction, type AsyncDbOrTx, type AsyncTx } from "../../db/async";

export interface LinkResult {
  success: true;
  merged: boolean;
  user: ReturnType<typeof publicUser>;
}

async function identityOf(db: AsyncDbOrTx, userId: number, provider: "telegram" | "email") {
  const { identities } = db.tables;
  const [row] = await db
    .select()
    .from(identities)
    .where(and(eq(identities.userId, userId), eq(identities.provider, provider)))
    .limit(1);
  return row;
}

/**
 * Spec rules 1 and 5: an account links one email, once; an email whose account already has a
 * different Telegram account cannot be linked. 409 with a reason otherwise.
 */
async function assertCanLinkEmail(deps: { asyncDb: AsyncDbOrTx }, userId: number, email: string): Promise<void> {
  await assertOwnEmailFree(deps, userId, email);
  const owner = await findUserByIdentity(deps, "email", email);
  if (owner && owner.id !== userId) await assertMergeable(deps.asyncDb, owner.id, userId);
}

/**
 * The rules about the caller's own account only (it links one email, once): what may be said before
 * the caller proved they hold the email. Whether the email's account, if any, can merge is said only
 * after the code, so the code request tells nothing about someone else's account.
 */
export async function assertOwnEmailFree(deps: { asyncDb: AsyncDbOrTx }, userId: number, email: string): Promise<void> {
  const own = await identityOf(deps.asyncDb, userId, "email");
  if (own?.subject === email) throw new Conflict("This email is already linked to your account", "email_already_linked");
  if (own)
    throw new Conflict(`Your account already has an email linked (${own.subject}); an email can be linked only once`, "email_already_set");
}

/** Holds the identities of both sides of a link while it is checked and written (every node waits its turn). */
async function lockLink(tx: AsyncTx, userId: number, provider: "telegram" | "email", subject: string) {
  await serializeOn(tx, `identity:${provider}:${subject}`);
  await serializeOn(tx, `account:${userId}`);
}

/**
 * Links a verified email to `userId`. When the email already has an account, that account is merged
 * into `userId` (spec rule 2). Re-checks the rules inside the transaction.
 */
export async function linkEmail(deps: Pick<Deps, "asyncDb" | "clock">, userId: number, email: string): Promise<LinkResult> {
  const { identities, users } = deps.asyncDb.tables;
  return transaction(deps.asyncDb, async (tx): Promise<LinkResult> => {
    await lockLink(tx, userId, "email", email);
    const d = { asyncDb: tx, clock: deps.clock };
    await assertCanLinkEmail(d, userId, email);
    const owner = await findUserByIdentity(d, "email", email);
    if (owner) return { success: true, merged: true, user: publicUser(await mergeAccounts(d, owner.id, userId)) };
    await tx.insert(identities).values({ userId, provider: "email", subject: email, createdAt: deps.clock.now() });
    const [user] = await tx.update(users).set({ email }).where(eq(users.id, userId)).returning();
    return { success: true, merged: false, user: publicUser(user!) };
  });
}

/**
 * Links a Telegram account to `userId` (rule 6, the dashboard's Login Widget). Linking the one
 * already linked is a no-op; another Telegram account on this account, or a Telegram account whose
 * account has another email, is refused with 409; an existing Telegram-only account is merged in.
 */
export async function linkTelegram(deps: Pick<Deps, "asyncDb" | "clock">, userId: number, tg: TelegramProfile): Promise<LinkResult> {
  const { identities, users } = deps.asyncDb.tables;
  const subject = String(tg.id);
  return transaction(deps.asyncDb, async (tx): Promise<LinkResult> => {
    await lockLink(tx, userId, "telegram", subject);
    const d = { asyncDb: tx, clock: deps.clock };
    const own = await identityOf(tx, userId, "telegram");
    if (own?.subject === subject) return { success: true, merged: false, user: publicUser(await getUser(d, userId)) };
    if (own) throw new Conflict("Your account is already linked to a different Telegram account", "telegram_already_set");
    const profile = { msgrId: tg.id, username: tg.username ?? null, firstName: tg.firstName ?? null };
    const owner = await findUserByIdentity(d, "telegram", subject);
    let merged: UserRow | null = null;
    if (owner) merged = await mergeAccounts(d, owner.id, userId);
    else await tx.insert(identities).values({ userId, provider: "telegram", subject, createdAt: deps.clock.now() });
    const [user] = await tx
      .update(users)
      .set({
        ...profile,
        username: profile.username ?? merged?.username ?? null,
        firstName: profile.firstName ?? merged?.firstName ?? null,
      })
      .where(eq(users.id, userId))
      .returning();
    return { success: true, merged: merged !== null, user: publicUser(user!) };
  });
}

/** POST /api/auth/msgr/link-widget: verifies the widget hash, then links as linkTelegram does. */
export async function linkTelegramWidget(
  deps: Pick<Deps, "asyncDb" | "config" | "clock">,
  userId: number,
  data: LoginWidgetData,
): Promise<LinkResult> {
  return linkTelegram(deps, userId, verifyLoginWidget(deps, data));
}
