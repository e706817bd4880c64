import { GrammyError } from "grammy";
import { and, eq, inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import { AppError, Forbidden } from "../errors";
import { ownerChat, telegramPeopleOf } from "../accounts/users";
import { t } from "../i18n/translate";
import { queueBotMessage } from "../delivery/outbox";
import { channelApi } from "./telegram";
import { standingOf, type Standing } from "./standing";

type PowerDeps = Pick<Deps, "asyncDb" | "telegram" | "chatStandings">;

/** 503 rights_unconfirmed: Telegram could not be asked, so nothing that needs the person's rights is done. */
class RightsUnconfirmed extends AppError {
  constructor() {
    super(
      503,
      "rights_unconfirmed",
      "Telegram could not be reached to confirm that you still administer this chat, so nothing was done; try again in a minute",
    );
  }
}

/** The refusal for a standing that does not hold: 403 `not_chat_admin` or `no_invite_right`, saying why. */
export function refusalOf(standing: Extract<Standing, { holds: false }>): Forbidden {
  switch (standing.reason) {
    case "no_invite_right":
      return new Forbidden(
        "You are an administrator of this chat without the right to invite users, which the bot needs you to hold to act for you there: ask the chat's owner for it",
        "no_invite_right",
      );
    case "left":
      return new Forbidden("Telegram says you have left this chat, so the bot no longer acts for you there", "not_chat_admin");
    case "kicked":
      return new Forbidden("Telegram says you were removed from this chat, so the bot no longer acts for you there", "not_chat_admin");
    default:
      return new Forbidden(
        "Telegram says you are not an administrator of this chat, so the bot does not act for you there",
        "not_chat_admin",
      );
  }
}

/**
 * The standing of Telegram user `personId` in `chatId`: from the cache while fresh, else asked with
 * getChatMember and kept. Telegram unreachable or failing (or the bot not configured) is a 503
 * `rights_unconfirmed`, never a grant; Telegram refusing to answer (the bot was removed, the chat
 * is gone) is a 409 `telegram_refused` with its words.
 */
export async function standingIn(deps: PowerDeps, chatId: string, personId: number): Promise<Standing> {
  const known = deps.chatStandings.get(chatId, personId);
  if (known) return known;
  if (!deps.telegram) throw new RightsUnconfirmed();
  const api = channelApi(deps);
  let member: Awaited<ReturnType<typeof api.getChatMember>>;
  try {
    member = await api.getChatMember(chatId, personId);
  } catch (e) {
    // a refusal about the chat or the person is Telegram's answer; its own failure (5xx, 429) is no answer
    if (e instanceof GrammyError && e.error_code < 500 && e.error_code !== 429) throw new AppError(409, "telegram_refused", e.description);
    throw new RightsUnconfirmed();
  }
  const standing = standingOf(member);
  deps.chatStandings.remember(chatId, personId, standing);
  return standing;
}

/**
 * Confirms that the account's Telegram user (for a team: one of its members who may change things)
 * may use the service's powers in `chatId` now (creator, or administrator with can_invite_users),
 * else throws the refusal that says why (the first person's). An account with no Telegram identity
 * cannot be confirmed: 403 `not_chat_admin`.
 */
export async function confirmPowers(deps: PowerDeps, userId: number, chatId: string): Promise<void> {
  const people = await telegramPeopleOf(deps.asyncDb, userId);
  if (!people.length)
    throw new Forbidden(
      "Your account has no Telegram identity, so Telegram cannot confirm you administer the chat: sign in with Telegram or link it first",
      "not_chat_admin",
    );
  let refused: Standing | null = null;
  for (const person of people) {
    const standing = await standingIn(deps, chatId, person);
    if (standing.holds) return;
    refused ??= standing;
  }
  throw refusalOf(refused!);
}

/** Whether the account's standing holds now; any failure to confirm it is a no (logged), for paths that must not throw. */
export async function holdsChat(deps: PowerDeps & Pick<Deps, "log">, userId: number, chatId: string): Promise<boolean> {
  try {
    await confirmPowers(deps, userId, chatId);
    return true;
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    if (e.status !== 403) deps.log.warn(`channels: standing of account ${userId} in ${chatId} unconfirmed: ${e.message}`);
    return false;
  }
}

/**
 * The accounts holding `chatId` as a channel whose Telegram user is `personId` (normally one; two
 * after a person signs in with Telegram on another account before merging), and the team
 * workspaces holding it where that person is an editor or more (whose powers in the chat rest on
 * their members' standing: `team` set).
 */
async function ownersByPerson(deps: Pick<Deps, "asyncDb">, chatId: string, personId: number) {
  const { channels, users, workspaceMembers } = deps.asyncDb.tables;
  const own = await deps.asyncDb
    .select({ userId: channels.userId, channelId: channels.id, title: channels.title })
    .from(channels)
    .innerJoin(users, eq(users.id, channels.userId))
    .where(and(eq(channels.chatId, chatId), eq(users.msgrId, personId)));
  const teams = await deps.asyncDb
    .select({ userId: channels.userId, channelId: channels.id, title: channels.title })
    .from(channels)
    .innerJoin(workspaceMembers, eq(workspaceMembers.workspaceId, channels.userId))
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(channels.chatId, chatId), eq(users.msgrId, personId), inArray(workspaceMembers.role, ["owner", "admin", "editor"])));
  return [...own.map((o) => ({ ...o, team: false })), ...teams.map((o) => ({ ...o, team: true }))];
}

/** A change of a person's standing in a chat, from a `chat_member` update. */
export interface StandingChange {
  chatId: string;
  personId: number;
  was: Standing;
  is: Standing;
}

/**
 * A `chat_member` update about a person who holds the chat as a channel on some account: their new
 * standing replaces the cached one at once, on every node. When it stops holding (demoted, left,
 * removed, or the right to invite users taken away) the chat stops being theirs to run through the
 * bot from this moment, and each such account is told in its language; when it holds again, they
 * are told that too. Returns the accounts told.
 */
export async function recordStandingChange(
  deps: Pick<Deps, "asyncDb" | "clock" | "chatStandings">,
  change: StandingChange,
): Promise<number[]> {
  const owners = await ownersByPerson(deps, change.chatId, change.personId);
  if (!owners.length) return [];
  deps.chatStandings.learn(change.chatId, change.personId, change.is);
  if (change.was.holds === change.is.holds) return [];
  const now = deps.clock.now();
  // a team is not told: another member may still run the chat; its next use asks each member anew
  const persons = owners.filter((o) => !o.team);
  for (const owner of persons) {
    const { chatId, lang } = await ownerChat(deps.asyncDb, owner.userId);
    if (chatId === null) continue;
    const title = Bun.escapeHTML(String(owner.title ?? change.chatId));
    const text = change.is.holds ? t(lang, "channel-regained", { title }) : t(lang, "channel-lost", { title, reason: change.is.reason });
    await queueBotMessage(deps.asyncDb, now, { userId: owner.userId, topic: "notice", refId: owner.channelId, chatId, params: { text } });
  }
  return persons.map((o) => o.userId);
}
