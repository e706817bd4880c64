import { Composer } from "grammy";
import type { InlineKeyboardButton, MessageEntity } from "grammy/types";
import type { BotContext, UpdateContext } from "../context";
import { signedIn } from "../require-user";
import { CALLBACK_DATA, decodeCallback, type BotTarget, type BotTargetKind } from "../../core/deep-link";
import { AppError } from "../../core/errors";
import { markMatchesRead, markMatchRangeRead } from "../../core/tracking/matches";
import { setShareLinkRevoked } from "../../core/secure/share-links";
import { write } from "../audited";
import { act, open, type Screen } from "../menus/nav";
import { problemText } from "../problem";
import { mayChange } from "../workspace";
import { linkCard } from "../menus/link-card";
import { linkList } from "../menus/link-list";
import { settingsScreen } from "../menus/settings";
import { reportsScreen } from "../menus/reports";
import { trackerScreen, trackersScreen } from "../menus/tracking";
import { fileScreen, foldersScreen, shareScreen } from "../menus/secure";
import { channelScreen, inviteScreen } from "../menus/channels";
import { adsScreen } from "../menus/ads";
import { placementScreen } from "../menus/ads-placement";

/**
 * The one router of what core's messages ask for (core/deep-link.ts), as `/start <payload>` (from
 * bot/features/start.ts) or as a button pressed in the owner's chat with the bot. Buttons act in
 * place: open buttons send the object's screen below the message; ✓ Mark read and ⛔ Revoke answer
 * with a toast and edit the message to say so, the button gone.
 */
export const deepLinksFeature = new Composer<UpdateContext>();

/** The screen each open target shows, and the ids it is drawn for. */
const SCREENS: { [K in BotTargetKind]?: (t: Extract<BotTarget, { kind: K }>) => [Screen, number[]] } = {
  link: (t) => [linkCard, [t.id]],
  links: () => [linkList, [0, 0]],
  settings: () => [settingsScreen, []],
  reports: () => [reportsScreen, []],
  tracker: (t) => [trackerScreen, [t.id]],
  trackers: () => [trackersScreen, [0]],
  share: (t) => [fileScreen, [t.id]],
  sharelink: (t) => [shareScreen, [t.id]],
  channel: (t) => [channelScreen, [t.id]],
  invite: (t) => [inviteScreen, [t.id]],
  ads: () => [adsScreen, [0, 0]],
  placement: (t) => [placementScreen, [t.id]],
};

/** The screen an open target shows, or null for an action. */
function screenOf(target: BotTarget): [Screen, number[]] | null {
  const draw = SCREENS[target.kind] as ((t: BotTarget) => [Screen, number[]]) | undefined;
  return draw ? draw(target) : null;
}

/** The screen a start link falls back to when its object is gone (the main menu otherwise). */
const FALLBACK: { [K in BotTargetKind]?: string } = { tracker: "trackers", channel: "channels", invite: "channels", placement: "ads" };

/**
 * `/start <payload>` for a decoded target: the screen as a new message, or the matches marked read
 * above the trackers. Someone else's or a gone object says so above the screen it falls back to.
 */
export async function startTarget(ctx: BotContext, target: BotTarget) {
  const uid = ctx.owner.id;
  if (target.kind === "read" || target.kind === "readr")
    return act(
      ctx,
      async () => {
        mayChange(ctx);
        const n =
          target.kind === "read"
            ? await markMatchesRead(ctx.deps, uid, [target.id])
            : await markMatchRangeRead(ctx.deps, uid, target.from, target.to);
        const notice = target.kind === "read" ? ctx.t(n ? "match-marked" : "match-already-read") : ctx.t("matches-marked", { count: n });
        await open(ctx, trackersScreen, [0], notice);
      },
      "trackers",
    );
  const [screen, view] = screenOf(target)!;
  if (target.kind === "share" || target.kind === "sharelink") {
    try {
      await open(ctx, screen, view);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      await ctx.reply(Bun.escapeHTML(goneText(ctx, target, e)));
      await open(ctx, foldersScreen, []);
    }
    return;
  }
  await act(ctx, () => open(ctx, screen, view), FALLBACK[target.kind] ?? "main");
}

/** What is said when an object a button names is gone (or is someone else's). */
function goneText(ctx: BotContext, target: BotTarget, e: AppError): string {
  if (e.code === "forbidden_role") return problemText(ctx, e);
  if (target.kind === "share") return ctx.t("secure-file-gone");
  if (target.kind === "sharelink" || target.kind === "revoke") return ctx.t("secure-share-gone");
  return problemText(ctx, e);
}

/**
 * The message a button sat on, edited in place: `note` added below its text (its formatting kept)
 * and the buttons of `done` kinds removed. A message Telegram no longer lets us edit is left as it is.
 */
async function markDone(ctx: BotContext, note: string, done: BotTargetKind[]) {
  const msg = ctx.callbackQuery?.message;
  if (!msg || msg.date === 0) return; // older than Telegram keeps for bots
  const rows = (msg.reply_markup?.inline_keyboard ?? []) as InlineKeyboardButton[][];
  const kept = rows
    .map((row) => row.filter((b) => !("callback_data" in b) || !done.includes(decodeCallback(b.callback_data)?.kind as BotTargetKind)))
    .filter((row) => row.length > 0);
  const reply_markup = { inline_keyboard: kept };
  const body =
    "text" in msg && msg.text !== undefined
      ? { text: msg.text, entities: msg.entities }
      : "caption" in msg && msg.caption !== undefined
        ? { text: msg.caption, entities: msg.caption_entities }
        : null;
  const entities: MessageEntity[] = body?.entities ?? [];
  const text = body ? `${body.text}\n\n${note}` : null;
  try {
    if (text !== null && "text" in msg && msg.text !== undefined)
      await ctx.editMessageText(text, { entities, reply_markup, link_preview_options: { is_disabled: true } });
    else if (text !== null) await ctx.editMessageCaption({ caption: text, caption_entities: entities, reply_markup });
    else await ctx.editMessageReplyMarkup({ reply_markup });
  } catch (e) {
    const why = String((e as { description?: string })?.description ?? e);
    if (/message is not modified|message can't be edited|message to edit not found/.test(why)) return;
    // a text Telegram would not take back (past its length): the buttons alone change
    if (/too long/i.test(why)) return void (await ctx.editMessageReplyMarkup({ reply_markup }).catch(() => undefined));
    throw e;
  }
}

/** Does what a pressed button of a core message names, answering its callback query once. */
async function press(ctx: BotContext, target: BotTarget) {
  const uid = ctx.owner.id;
  try {
    switch (target.kind) {
      case "read":
      case "readr": {
        mayChange(ctx);
        const n =
          target.kind === "read"
            ? await markMatchesRead(ctx.deps, uid, [target.id])
            : await markMatchRangeRead(ctx.deps, uid, target.from, target.to);
        const toast = target.kind === "read" ? ctx.t(n ? "match-marked" : "match-already-read") : ctx.t("matches-marked", { count: n });
        await ctx.answerCallbackQuery({ text: toast });
        await markDone(ctx, ctx.t(target.kind === "read" ? "match-read-note" : "matches-read-note"), ["read", "readr"]);
        return;
      }
      case "revoke": {
        mayChange(ctx);
        await write(ctx, setShareLinkRevoked, target.id, true);
        await ctx.answerCallbackQuery({ text: ctx.t("share-revoked-toast") });
        await markDone(ctx, ctx.t("share-revoked-note"), ["revoke"]);
        return;
      }
      default: {
        const [screen, view] = screenOf(target)!;
        // drawn first: an object that is gone is said in the toast, with no message sent
        await open(ctx, screen, view);
        await ctx.answerCallbackQuery();
      }
    }
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await ctx.answerCallbackQuery({ text: goneText(ctx, target, e), show_alert: true });
  }
}

deepLinksFeature.callbackQuery(CALLBACK_DATA, async (ctx) => {
  const target = decodeCallback(ctx.callbackQuery.data);
  if (!target) return ctx.answerCallbackQuery({ text: ctx.t("nav-stale-button") });
  // these buttons are sent only to the owner's private chat; anywhere else they would act for whoever pressed
  if (ctx.chat?.type !== "private" || !signedIn(ctx))
    return ctx.answerCallbackQuery({ text: ctx.t("deep-link-owner-only"), show_alert: true });
  await press(ctx, target);
});
