import type { Context } from "grammy";
import type { Conversation } from "@grammyjs/conversations";
import type { BotContext, DialogContext } from "../context";
import { createInvite, ownedInvite, updateInvite } from "../../core/channels/invites";
import { AppError } from "../../core/errors";
import { INVITE_OPTIONS } from "../menus/invite-options";
import { inviteScreen } from "../menus/channels";
import { open } from "../menus/nav";
import { problemText } from "../problem";
import { answerOption } from "./option-answer";
import { askChoice } from "./choice";

type Convo = Conversation<BotContext, DialogContext>;

const CANCELLED = "Cancelled. Nothing was created.";

/**
 * "New invite" in channel `channelId`: a name, then whether people join at once or ask to join,
 * then the invite is made through core (the same checks and Telegram call as the API). A name
 * Telegram would refuse is asked again.
 */
export async function newInviteConversation(conversation: Convo, ctx: DialogContext, channelId: number): Promise<void> {
  await ctx.reply("🔗 New invite link.\nSend its name, e.g. the channel where the ad runs (at most 32 characters; people joining do not see it).\n\n/cancel to stop.");
  let name: string;
  for (;;) {
    const answer = await conversation.waitFor("message:text", { otherwise: (c) => c.reply("Please send the name as text, or /cancel.") });
    const text = answer.message.text.trim();
    if (text.startsWith("/")) {
      if (text === "/cancel") await answer.reply(CANCELLED);
      return conversation.halt({ next: text !== "/cancel" });
    }
    if ([...text].length <= 32) {
      name = text;
      break;
    }
    await answer.reply(`That name has ${[...text].length} characters; Telegram allows 32. Send a shorter one, or /cancel.`);
  }
  const { c, value } = await askChoice(conversation, ctx, "How do people join through it?", {
    choices: [["They join at once", "open"], ["They ask to join (counts every join, even in a public channel)", "requests"]],
    perRow: 1,
    read: (t) => (/^(at once|open|join)/i.test(t) ? "open" : /^(ask|request)/i.test(t) ? "requests" : null),
    hint: "Please press one of the buttons above, or /cancel.",
  });
  if (value === "cancel") return void (await c.reply(CANCELLED));
  const result = await conversation.external(async (o: BotContext) => {
    if (!o.user) return { error: "Please talk to me in a private chat." };
    try {
      return { id: (await createInvite(o.deps, o.user.id, channelId, { name, join_request: value === "requests" })).id };
    } catch (e) {
      if (e instanceof AppError) return { error: e.code === "telegram_refused" ? `Telegram refused: ${e.message}` : e.message };
      throw e;
    }
  });
  if ("error" in result) return void (await c.reply(`❌ ${result.error}`));
  await conversation.external((o) => open(o, inviteScreen, [result.id], "✅ Invite link made. Put it in your ad; I count who joins and who leaves through it. Set its price below to see what a subscriber costs."));
}

/** One option of invite `id`: the question, then the answer saved through core (or its problem, and another try). */
export async function inviteOptionConversation(conversation: Convo, ctx: DialogContext, id: number, index: number) {
  const option = INVITE_OPTIONS[index];
  if (!option) return;
  await answerOption(conversation, ctx, option, async (o, text) => {
    const invite = await ownedInvite(o.deps, o.user!.id, id);
    await updateInvite(o.deps, o.user!.id, id, text === "/clear" ? option.clear! : option.parse(text, invite, o.deps.clock.now()));
    await open(o, inviteScreen, [id], `✅ Saved: ${option.label.replace(/^\S+\s/, "")}.`);
  }, (o, e) => (e.code === "telegram_refused" ? o.t("telegram-refused", { reason: e.message }) : problemText(o, e)));
}
