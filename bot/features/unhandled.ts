import { Composer } from "grammy";
import type { BotContext } from "../context";
import { mainScreen } from "../menus/root";
import { open } from "../menus/nav";
import { greet } from "./start";
import { DIALOG_PREFIX, EXPIRED_CHOICE } from "../conversations/choice";

/**
 * Registered last: whatever no feature handled. Private messages get a pointer to the menu;
 * stray button presses (old messages, removed features) are answered so the client stops spinning.
 * Group and channel traffic is left alone.
 */
export const unhandledFeature = new Composer<BotContext>();

// a button of a dialog that has ended
unhandledFeature.callbackQuery(new RegExp(`^${DIALOG_PREFIX}`), (ctx) => ctx.answerCallbackQuery({ text: EXPIRED_CHOICE }));

unhandledFeature.on("callback_query", async (ctx) => {
  await ctx.answerCallbackQuery({ text: "This button is no longer active. Send /start for the menu.", show_alert: false });
});

const pm = unhandledFeature.chatType("private");

// a deep link no feature recognised: still a /start
pm.command("start", greet);

pm.on("message", async (ctx) => {
  const text = ctx.message.text ?? "";
  const reply = text.startsWith("/")
    ? `I don't know the command ${Bun.escapeHTML(text.split(/\s/)[0]!)}. Send /help for the list, or pick a section:`
    : "I'm not sure what to do with that. Paste a link to shorten it, pick a section below, or send /help:";
  await open(ctx, mainScreen, [], reply);
});
