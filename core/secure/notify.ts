/**
 * Bot messages to the owner of secure content: a view of a link with notifyOnView, and each item
 * that arrives through a request link. Queued in the outbox inside the transaction that causes them,
 * so a crash or restart loses none; the delivery worker sends and retries them.
 */
import { and, desc, eq, gt } from "drizzle-orm";
import type { AsyncDbOrTx } from "../../db/async";
import { parsedUa } from "../clicks/enrich";
import type { Deps } from "../deps";
import { botMessageRow, queueBotMessage } from "../delivery/outbox";
import type { FileRow } from "./files";
import { ownerChat } from "../accounts/users";
import { numberIn, t, type Language } from "../i18n/translate";
import { targetButton } from "../deep-link";

/** Who opened a link, as far as the request tells. */
export interface Viewer {
  ip: string | null;
  userAgent: string | null;
}

const esc = Bun.escapeHTML;
const when = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** "Chrome on Android (mobile)" or "unknown device". */
function deviceOf(lang: Language, userAgent: string | null): string {
  if (!userAgent) return t(lang, "view-device-unknown");
  const ua = parsedUa(userAgent);
  const name = ua.browser && ua.os ? t(lang, "view-browser-on-os", { browser: ua.browser, os: ua.os }) : (ua.browser ?? ua.os);
  return name ? `${name} (${ua.device})` : `${userAgent.slice(0, 60)} (${ua.device})`;
}

/** Views of one link within this long share one "was opened" message after the first. */
const VIEW_NOTICE_WINDOW_MS = 60_000;

/**
 * Queues "your file was opened" for a counted view of a link with notifyOnView: the file's name, the
 * time, the viewer's country and device, the views left and a button that opens the link's card in
 * the bot (where it can be revoked). Owners without a Telegram chat (email-only accounts) get none.
 * Coalesced per link: the first view is told at once; views within VIEW_NOTICE_WINDOW_MS of the last
 * message share one more message, sent when that minute is over and showing the latest view and the
 * count so far (3,000 views in two seconds are two messages, not 3,000 buzzes).
 */
export async function queueViewNotice(
  tx: AsyncDbOrTx,
  deps: Pick<Deps, "config" | "clock" | "geo">,
  link: { id: number; userId: number; code: string; maxViews: number | null; viewCount: number },
  file: Pick<FileRow, "name">,
  viewer: Viewer,
): Promise<void> {
  const { chatId, lang } = await ownerChat(tx, link.userId);
  if (chatId === null) return;
  const now = deps.clock.now();
  const { outbox } = tx.tables;
  const [last] = await tx
    .select({ id: outbox.id, status: outbox.status, nextAttemptAt: outbox.nextAttemptAt, createdAt: outbox.createdAt })
    .from(outbox)
    .where(
      and(
        eq(outbox.topic, "secure_view"),
        eq(outbox.refId, link.id),
        gt(outbox.createdAt, new Date(now.getTime() - VIEW_NOTICE_WINDOW_MS)),
      ),
    )
    .orderBy(desc(outbox.id))
    .limit(1);
  const country = deps.geo(viewer.ip).country ?? t(lang, "view-country-unknown");
  const left =
    link.maxViews === null
      ? t(lang, "view-left-unlimited")
      : t(lang, "view-left", { left: numberIn(lang, Math.max(0, link.maxViews - link.viewCount)), max: numberIn(lang, link.maxViews) });
  const name = esc(file.name);
  const text = [
    last ? t(lang, "view-opened-again", { name, views: link.viewCount }) : t(lang, "view-opened", { name }),
    t(lang, "view-link", { url: esc(`${deps.config.shortUrl}/s/${link.code}`) }),
    t(lang, last ? "view-latest" : "view-time", { time: when(now) }),
    t(lang, "view-from", { country: esc(country), device: esc(deviceOf(lang, viewer.userAgent)) }),
    left,
  ].join("\n");
  const params = {
    text,
    link_preview_options: { is_disabled: true },
    reply_markup: {
      inline_keyboard: [
        [
          targetButton(t(lang, "view-revoke"), { kind: "revoke", id: link.id }),
          targetButton(t(lang, "view-manage"), { kind: "sharelink", id: link.id }),
        ],
      ],
    },
  };
  // a message for this minute already waits: it takes the latest view
  if (last && last.status === "pending" && last.nextAttemptAt.getTime() > now.getTime()) {
    await tx.update(outbox).set({ payload: params }).where(eq(outbox.id, last.id));
    return;
  }
  const row = botMessageRow(now, { userId: link.userId, topic: "secure_view", refId: link.id, chatId, params });
  if (last) row.nextAttemptAt = new Date(last.createdAt.getTime() + VIEW_NOTICE_WINDOW_MS);
  await tx.insert(outbox).values(row);
}

/**
 * Queues an item that arrived through a request link into the owner's chat: a text as a message,
 * a file as a document read from storage when the message is sent.
 */
export async function queueRequestItem(
  deps: Pick<Deps, "asyncDb" | "clock">,
  request: { id: number; userId: number; title: string },
  file: Pick<FileRow, "id" | "name" | "contentType" | "textContent" | "storagePath" | "fileName">,
): Promise<void> {
  const tx = deps.asyncDb;
  const { chatId, lang } = await ownerChat(tx, request.userId);
  if (chatId === null) return;
  const now = deps.clock.now();
  const from = request.title ? t(lang, "request-item-new", { title: esc(request.title) }) : t(lang, "request-item-new-untitled");
  const job = { userId: request.userId, topic: "secure_request_item", refId: file.id, chatId };
  const reply_markup = { inline_keyboard: [[targetButton(t(lang, "request-item-open"), { kind: "share", id: file.id })]] };
  if (file.contentType === "text") {
    // a text near Telegram's 4096 characters would not fit beside the header: it is cut, the folder keeps it whole
    const body = (file.textContent ?? "").slice(0, 3500);
    const cut = body.length < (file.textContent ?? "").length ? `\n${t(lang, "request-item-cut")}` : "";
    await queueBotMessage(tx, now, { ...job, params: { text: `${from}\n\n${esc(body)}${esc(cut)}`, reply_markup } });
    return;
  }
  await queueBotMessage(tx, now, {
    ...job,
    method: "sendDocument",
    params: {
      caption: from,
      reply_markup,
      stored_document: { path: file.storagePath, fileName: file.fileName ?? file.name },
    },
  });
}
