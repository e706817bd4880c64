/**
 * Where a workspace's messages go (reports, alerts, tracker notifications, join requests): a
 * personal workspace's to its person's private chat, as always; a team workspace's to its connected
 * group (and forum topic), else to the private chats of its owners and admins.
 */
import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import type { AsyncDbOrTx } from "../../db/async";
import { languageFor, type Language } from "../i18n/translate";
import { decodeCallback, startButton } from "../deep-link";
import { queueBotMessage } from "../delivery/outbox";
import { teamChatOf } from "./chats";

export interface Destination {
  chatId: number | string;
  lang: Language;
  /** the forum topic of the group, when one was chosen */
  threadId: number | null;
  /** a group the whole team reads (buttons that would act for whoever presses are not sent there) */
  group: boolean;
}

/** The roles whose members receive a team workspace's messages when it has no group. */
const RECEIVING_ROLES = ["owner", "admin"] as const;

/** The chats a workspace's messages go to (none for an account without Telegram and no team chat). */
export async function deliveryChats(db: AsyncDbOrTx, ownerId: number): Promise<Destination[]> {
  const { users, workspaceMembers } = db.tables;
  const [owner] = await db
    .select({ kind: users.kind, msgrId: users.msgrId, language: users.language, app: users.appLanguage })
    .from(users)
    .where(eq(users.id, ownerId))
    .limit(1);
  if (!owner) return [];
  if (owner.kind !== "team")
    return owner.msgrId ? [{ chatId: owner.msgrId, lang: languageFor(owner.language, owner.app), threadId: null, group: false }] : [];
  const chat = await teamChatOf(db, ownerId);
  if (chat) return [{ chatId: chat.chatId, lang: chat.language, threadId: chat.threadId, group: true }];
  const admins = await db
    .select({ msgrId: users.msgrId, language: users.language, app: users.appLanguage })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, ownerId), inArray(workspaceMembers.role, [...RECEIVING_ROLES]), isNotNull(users.msgrId)))
    .orderBy(asc(users.id));
  return admins.map((a) => ({ chatId: a.msgrId!, lang: languageFor(a.language, a.app), threadId: null, group: false }));
}

type Button = { text: string; callback_data?: string; url?: string };

/** A button as a group gets it: an in-place target as a start link (none for one a link may not carry). */
function forGroup(b: Button): Button | null {
  const target = b.callback_data ? decodeCallback(b.callback_data) : null;
  return target ? startButton(b.text, target) : b;
}

/**
 * Bot API parameters addressed to `to`: in a group, into its topic, and each button that opens or
 * does something in the presser's private chat (core/deep-link.ts) becomes a start link that
 * opens the bot there, or goes when a link may not carry it; the group's own buttons stay.
 */
export function addressed(params: Record<string, unknown>, to: Destination): Record<string, unknown> {
  if (!to.group) return params;
  const out: Record<string, unknown> = { ...params, ...(to.threadId !== null ? { message_thread_id: to.threadId } : {}) };
  const markup = params.reply_markup as { inline_keyboard?: Button[][] } | undefined;
  if (markup?.inline_keyboard)
    out.reply_markup = {
      ...markup,
      inline_keyboard: markup.inline_keyboard.map((row) => row.flatMap((b) => forGroup(b) ?? [])).filter((row) => row.length > 0),
    };
  return out;
}

/**
 * Queues one message of a workspace to each of its destinations, written in each one's language
 * (`build` is asked once per language), inside the caller's transaction. Returns how many were queued.
 */
export async function queueToWorkspace(
  db: AsyncDbOrTx,
  now: Date,
  job: { userId: number; topic: string; refId?: number | null },
  build: (lang: Language) => Record<string, unknown> | Promise<Record<string, unknown>>,
  to?: Destination[],
): Promise<number> {
  const destinations = to ?? (await deliveryChats(db, job.userId));
  const built = new Map<Language, Record<string, unknown>>();
  for (const d of destinations) {
    if (!built.has(d.lang)) built.set(d.lang, await build(d.lang));
    await queueBotMessage(db, now, { ...job, chatId: d.chatId, params: addressed(built.get(d.lang)!, d) });
  }
  return destinations.length;
}
