import { Composer } from "grammy";
import type { UpdateContext } from "../context";
import { signedIn } from "../require-user";
import { mainScreen } from "../menus/root";
import { open } from "../menus/nav";
import { greet } from "./start";
import { DIALOG_PREFIX, EXPIRED_CHOICE } from "../conversations/choice";

/**
 * Registered last: whatever no feature handled. Private messages get a pointer to the menu;
 * stray button presses (old messages, removed features) are answered so the client stops spinning.
 * Group and channel traffic is left alone.
 */
export const unhandledFeature = new Composer<UpdateContext>();

// a button of a dialog that has ended
unhandledFeature.callbackQuery(new RegExp(`^${DIALOG_PREFIX}`), (ctx) => ctx.answerCallbackQuery({ text: ctx.t(EXPIRED_CHOICE) }));

unhandledFeature.on("callback_query", async (ctx) => {
  await ctx.answerCallbackQuery({ text: ctx.t("nav-stale-button"), show_alert: false });
});

// /help (or /help@bot) in a group the bot is in: what it does there and where to talk to it
unhandledFeature.chatType(["group", "supergroup"]).command("help", async (ctx) => {
  await ctx.reply(ctx.t("help-group", { bot: ctx.me.username }), { reply_parameters: { message_id: ctx.msg.message_id } });
});

const pm = unhandledFeature.filter(signedIn).chatType("private");

// a deep link no feature recognised: still a /start
pm.command("start", greet);

pm.on("message", async (ctx) => {
  const text = ctx.message.text ?? "";
  const m = ctx.message;
  const reply = text.startsWith("/")
    ? ctx.t("unknown-command", { command: Bun.escapeHTML(text.split(/\s/)[0]!) })
    : m.voice || m.video_note
      ? ctx.t("unknown-voice")
      : m.sticker || m.animation
        ? ctx.t("unknown-sticker")
        : ctx.t("unknown-message");
  await open(ctx, mainScreen, [], reply);
});
