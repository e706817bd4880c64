import type { Deps } from "../deps";
import { verifyInitData, verifyLoginWidget, type LoginWidgetData } from "../accounts/telegram-auth";
import { upsertTelegramUser } from "../accounts/users";
import { issueSession, type Session } from "./sessions";

/** Signs in with Mini App initData: verifies it, creates the user on first contact, starts a session. */
export async function loginWithInitData(deps: Pick<Deps, "asyncDb" | "config" | "clock">, initData: string): Promise<Session> {
  const user = await upsertTelegramUser(deps, verifyInitData(deps, initData));
  return issueSession(deps, user);
}

/** Signs in with Telegram Login Widget data (hash keyed with SHA-256 of the bot token). */
export async function loginWithWidget(deps: Pick<Deps, "asyncDb" | "config" | "clock">, data: LoginWidgetData): Promise<Session> {
  const user = await upsertTelegramUser(deps, verifyLoginWidget(deps, data));
  return issueSession(deps, user);
}
