import { and, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { identities, users } from "../../db/schema";
import { Conflict } from "../errors";
import { verifyLoginWidget, type LoginWidgetData } from "./telegram-auth";
import { assertMergeable, mergeAccounts } from "./merge";
import { findUserByIdentity, getUser, publicUser, type TelegramProfile, type UserRow } from "./users";
import { writeTransaction, type DbOrTx } from "../../db/transaction";

type Db = Deps["db"];

export interface LinkResult {
  success: true;
  merged: boolean;
  user: ReturnType<typeof publicUser>;
}

function identityOf(db: Pick<Db, "select">, userId: number, provider: "telegram" | "email") {
  return db.select().from(identities).where(and(eq(identities.userId, userId), eq(identities.provider, provider))).get();
}

/**
 * Spec rules 1 and 5: an account links one email, once; an email whose account already has a
 * different Telegram account cannot be linked. 409 with a reason otherwise.
 */
export function assertCanLinkEmail(deps: { db: DbOrTx }, userId: number, email: string): void {
  const own = identityOf(deps.db, userId, "email");
  if (own?.subject === email) throw new Conflict("This email is already linked to your account", "email_already_linked");
  if (own) throw new Conflict(`Your account already has an email linked (${own.subject}); an email can be linked only once`, "email_already_set");
  const owner = findUserByIdentity(deps, "email", email);
  if (owner && owner.id !== userId) assertMergeable(deps.db, owner.id, userId);
}

/**
 * Links a verified email to `userId`. When the email already has an account, that account is merged
 * into `userId` (spec rule 2). Re-checks the rules inside the transaction.
 */
export function linkEmail(deps: Pick<Deps, "db" | "clock">, userId: number, email: string): LinkResult {
  return writeTransaction(deps.db, (tx) => {
    const d = { db: tx, clock: deps.clock };
    assertCanLinkEmail(d, userId, email);
    const owner = findUserByIdentity(d, "email", email);
    if (owner) return { success: true, merged: true, user: publicUser(mergeAccounts(d, owner.id, userId)) };
    tx.insert(identities).values({ userId, provider: "email", subject: email, createdAt: deps.clock.now() }).run();
    const user = tx.update(users).set({ email }).where(eq(users.id, userId)).returning().get();
    return { success: true, merged: false, user: publicUser(user) };
  });
}

/**
 * Links a Telegram account to `userId` (rule 6, the dashboard's Login Widget). Linking the one
 * already linked is a no-op; another Telegram account on this account, or a Telegram account whose
 * account has another email, is refused with 409; an existing Telegram-only account is merged in.
 */
export function linkTelegram(deps: Pick<Deps, "db" | "clock">, userId: number, tg: TelegramProfile): LinkResult {
  const subject = String(tg.id);
  return writeTransaction(deps.db, (tx) => {
    const d = { db: tx, clock: deps.clock };
    const own = identityOf(tx, userId, "telegram");
    if (own?.subject === subject) return { success: true, merged: false, user: publicUser(getUser(d, userId)) };
    if (own) throw new Conflict("Your account is already linked to a different Telegram account", "telegram_already_set");
    const profile = { msgrId: tg.id, username: tg.username ?? null, firstName: tg.firstName ?? null };
    const owner = findUserByIdentity(d, "telegram", subject);
    let merged: UserRow | null = null;
    if (owner) merged = mergeAccounts(d, owner.id, userId);
    else tx.insert(identities).values({ userId, provider: "telegram", subject, createdAt: deps.clock.now() }).run();
    const user = tx
      .update(users)
      .set({ ...profile, username: profile.username ?? merged?.username ?? null, firstName: profile.firstName ?? merged?.firstName ?? null })
      .where(eq(users.id, userId))
      .returning()
      .get();
    return { success: true, merged: merged !== null, user: publicUser(user) };
  });
}

/** POST /api/auth/msgr/link-widget: verifies the widget hash, then links as linkTelegram does. */
export function linkTelegramWidget(deps: Pick<Deps, "db" | "config" | "clock">, userId: number, data: LoginWidgetData): LinkResult {
  return linkTelegram(deps, userId, verifyLoginWidget(deps, data));
}
