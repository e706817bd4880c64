/**
 * The message that tells an account of a channel's waiting join requests: one per channel, naming it,
 * with the count, the people (the first few with their own Approve / Decline) and "Approve all". A
 * new request replaces it with a fresh one at the bottom of the chat (the old one is deleted, or its
 * buttons taken off when Telegram will not delete it); settling a request from anywhere (this
 * message, the Requests screen, the API) edits it in place, so no copy keeps a button for a request
 * that is settled. Sent straight through the Bot API (its message id is kept in
 * `channel_request_notices`); a failure is logged, the requests still wait on the Requests screen.
 */
import { and, asc, eq } from "drizzle-orm";
import type { InlineKeyboardButton } from "grammy/types";
import type { Deps } from "../deps";
import { addressed, deliveryChats } from "../team-chat/destinations";
import { t, type Language } from "../i18n/translate";
import { hasStartLinks, resolveStartLinks, targetButton } from "../deep-link";
import type { JoinRequestRow } from "./requests";

type NoticeDeps = Pick<Deps, "asyncDb" | "telegram" | "log" | "clock">;

/** People named with their own buttons; the rest are counted and settled with "Approve all" or on the Requests screen. */
const WITH_BUTTONS = 5;
/** People named in the text. */
const NAMED = 10;

/** The callback data of a request's buttons, and of a channel's "Approve all". */
const requestButton = (action: "approve" | "decline", id: number) => `jr:${action}:${id}`;
const approveAllButton = (channelId: number) => `jr:all:${channelId}`;

/** A person as the owner knows them: first name and @username, or their Telegram id. */
export function personName(lang: Language, r: Pick<JoinRequestRow, "firstName" | "username" | "memberId">): string {
  const named = [r.firstName, r.username ? `@${r.username}` : null].filter(Boolean).join(" ");
  return named || t(lang, "join-request-user", { id: r.memberId });
}

const esc = (s: string) => Bun.escapeHTML(s);

/** The waiting requests of `channelId` through the account's invites, oldest first, with their invite's name. */
export async function waitingRequests(deps: Pick<Deps, "asyncDb">, userId: number, channelId: number) {
  const { channelInvites, channelJoinRequests } = deps.asyncDb.tables;
  return deps.asyncDb
    .select({ r: channelJoinRequests, invite: channelInvites.name })
    .from(channelJoinRequests)
    .innerJoin(channelInvites, eq(channelInvites.id, channelJoinRequests.inviteId))
    .where(and(eq(channelInvites.channelId, channelId), eq(channelInvites.userId, userId), eq(channelJoinRequests.status, "pending")))
    .orderBy(asc(channelJoinRequests.requestedAt), asc(channelJoinRequests.id));
}

/** The notice's text and buttons; `said` (what was just done) leads it. */
async function render(deps: Pick<Deps, "asyncDb">, userId: number, channelId: number, lang: Language, said?: string) {
  const { channels } = deps.asyncDb.tables;
  const [channel] = await deps.asyncDb.select().from(channels).where(eq(channels.id, channelId)).limit(1);
  const title = esc(channel?.title ?? channel?.chatId ?? "");
  const waiting = await waitingRequests(deps, userId, channelId);
  const lead = said ? `${said}\n\n` : "";
  if (!waiting.length) return { waiting: 0, text: `${lead}${t(lang, "requests-notice-none", { channel: title })}`, keyboard: [] };
  const lines = waiting
    .slice(0, NAMED)
    .map(({ r, invite }) => t(lang, "requests-notice-line", { who: esc(personName(lang, r)), invite: esc(invite) }));
  if (waiting.length > NAMED) lines.push(t(lang, "requests-notice-more", { count: waiting.length - NAMED }));
  const head = t(lang, "requests-notice-head", { channel: title, count: waiting.length });
  const keyboard: InlineKeyboardButton[][] =
    waiting.length === 1
      ? [
          [
            { text: t(lang, "join-request-approve"), callback_data: requestButton("approve", waiting[0]!.r.id) },
            { text: t(lang, "join-request-decline"), callback_data: requestButton("decline", waiting[0]!.r.id) },
          ],
          [targetButton(t(lang, "join-request-open-invite"), { kind: "invite", id: waiting[0]!.r.inviteId })],
        ]
      : [
          ...waiting.slice(0, WITH_BUTTONS).map(({ r }) => [
            { text: t(lang, "requests-notice-approve-one", { who: personName(lang, r) }), callback_data: requestButton("approve", r.id) },
            { text: t(lang, "requests-notice-decline-one"), callback_data: requestButton("decline", r.id) },
          ]),
          [{ text: t(lang, "requests-approve-all", { count: waiting.length }), callback_data: approveAllButton(channelId) }],
          [targetButton(t(lang, "requests-notice-open"), { kind: "channel", id: channelId })],
        ];
  return { waiting: waiting.length, text: `${lead}${head}\n${lines.join("\n")}`, keyboard };
}

async function noticeOf(deps: Pick<Deps, "asyncDb">, userId: number, channelId: number) {
  const { channelRequestNotices: n } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .select()
    .from(n)
    .where(and(eq(n.userId, userId), eq(n.channelId, channelId)))
    .limit(1);
  return row ?? null;
}

/** A Bot API call whose failure is logged, not thrown (the requests wait on the Requests screen whatever happens). */
async function quietly<T>(deps: NoticeDeps, what: string, call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (e) {
    if (!/message is not modified/.test((e as Error).message)) deps.log.warn(`channels: ${what} failed: ${(e as Error).message}`);
    return null;
  }
}

/** Start links of a group's buttons written out with the bot's username (this notice is sent directly, not queued). */
async function forGroup(deps: NoticeDeps, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!hasStartLinks(params) || !deps.telegram) return params;
  return resolveStartLinks(params, (await deps.telegram.getMe()).username);
}

/** A request came: the channel's notice is sent anew, below, and the one before it goes. */
export async function tellRequests(deps: NoticeDeps, userId: number, channelId: number): Promise<void> {
  const api = deps.telegram;
  // the workspace's destination: the person, the team group (and its topic), else a team's first owner or admin
  const [to] = await deliveryChats(deps.asyncDb, userId);
  if (!api || !to) return;
  const view = await render(deps, userId, channelId, to.lang);
  if (!view.waiting) return;
  const sent = await quietly(deps, "the join-request notice", async () =>
    api.sendMessage(to.chatId, view.text, await forGroup(deps, addressed({ reply_markup: { inline_keyboard: view.keyboard } }, to))),
  );
  if (!sent) return;
  const before = await noticeOf(deps, userId, channelId);
  const { channelRequestNotices: n } = deps.asyncDb.tables;
  const now = deps.clock.now();
  const values = { userId, channelId, chatId: String(to.chatId), messageId: sent.message_id, createdAt: now };
  await deps.asyncDb
    .insert(n)
    .values(values)
    .onConflictDoUpdate({ target: [n.userId, n.channelId], set: { chatId: values.chatId, messageId: values.messageId, createdAt: now } });
  if (before && before.messageId !== sent.message_id) await retire(deps, before.chatId, before.messageId);
  // another request's notice, sent at the same time, was stored after this one: it is the one that stays
  const after = await noticeOf(deps, userId, channelId);
  if (after && after.messageId !== sent.message_id) await retire(deps, values.chatId, sent.message_id);
}

/** An older notice: deleted, or (past Telegram's 48 hours for deleting) left without buttons. */
async function retire(deps: NoticeDeps, chatId: string, messageId: number) {
  const api = deps.telegram!;
  const deleted = await quietly(deps, "deleting an older join-request notice", () => api.deleteMessage(chatId, messageId));
  if (!deleted) await quietly(deps, "clearing an older join-request notice", () => api.editMessageReplyMarkup(chatId, messageId));
}

/**
 * Requests of the channel were settled: its notice is edited in place, led by `said`; once none wait
 * it says so, without buttons, and is let go. `pressed`, a message of the account's chat whose button
 * settled it (an older notice, or a message sent before notices were grouped), says `said` too and
 * loses its buttons.
 */
export async function refreshRequestNotice(
  deps: NoticeDeps,
  userId: number,
  channelId: number,
  said: (lang: Language) => string,
  pressed?: { chatId: number | string; messageId: number },
): Promise<void> {
  const api = deps.telegram;
  if (!api) return;
  const notice = await noticeOf(deps, userId, channelId);
  const [to] = await deliveryChats(deps.asyncDb, userId);
  const lang = to?.lang ?? "en";
  if (notice) {
    const view = await render(deps, userId, channelId, lang, said(lang));
    if (!view.waiting) {
      const { channelRequestNotices: n } = deps.asyncDb.tables;
      await deps.asyncDb.delete(n).where(and(eq(n.id, notice.id), eq(n.messageId, notice.messageId)));
    }
    await quietly(deps, "updating the join-request notice", async () =>
      api.editMessageText(notice.chatId, notice.messageId, view.text, {
        // a team group's buttons that open something in the presser's chat are start links
        reply_markup: (to
          ? addressed({ reply_markup: { inline_keyboard: view.keyboard } }, to)
          : { reply_markup: { inline_keyboard: view.keyboard } }
        ).reply_markup as { inline_keyboard: typeof view.keyboard },
      }),
    );
  }
  if (pressed && !(notice && notice.messageId === pressed.messageId && notice.chatId === String(pressed.chatId)))
    await quietly(deps, "updating a join-request message", () =>
      api.editMessageText(pressed.chatId, pressed.messageId, said(lang), { reply_markup: { inline_keyboard: [] } }),
    );
}
