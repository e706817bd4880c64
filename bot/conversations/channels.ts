import type { Conversation } from "@grammyjs/conversations";
import { noted } from "../workspace";
import type { BotContext, DialogContext } from "../context";
import { createInvite, ownedInvite, updateInvite } from "../../core/channels/invites";
import { AppError } from "../../core/errors";
import { INVITE_OPTIONS } from "../menus/invite-options";
import { inviteScreen } from "../menus/channels";
import { open } from "../menus/nav";
import { problemText } from "../problem";
import { readerOf } from "../i18n";
import { answerOption } from "./option-answer";
import { askChoice } from "./choice";

type Convo = Conversation<BotContext, DialogContext>;

const CANCELLED = "dialog-cancelled-nothing-created";

/**
 * "New invite" in channel `channelId`: a name, then whether people join at once or ask to join,
 * then the invite is made through core (the same checks and Telegram call as the API). A name
 * Telegram would refuse is asked again.
 */
export async function newInviteConversation(conversation: Convo, ctx: DialogContext, channelId: number): Promise<void> {
  await ctx.reply(ctx.t("invite-ask-name"));
  let name: string;
  for (;;) {
    const answer = await conversation.waitFor("message:text", { otherwise: (c) => c.reply(ctx.t("invite-name-text-please")) });
    const text = answer.message.text.trim();
    if (text.startsWith("/")) {
      if (text === "/cancel") await answer.reply(ctx.t(CANCELLED));
      return conversation.halt({ next: text !== "/cancel" });
    }
    if ([...text].length <= 32) {
      name = text;
      break;
    }
    await answer.reply(ctx.t("invite-name-too-long", { length: [...text].length }));
  }
  const { c, value } = await askChoice(conversation, ctx, ctx.t("invite-ask-mode"), {
    choices: [
      [ctx.t("invite-mode-open"), "open"],
      [ctx.t("invite-mode-requests"), "requests"],
    ],
    perRow: 1,
    read: (t) => (/^(at once|open|join|сразу|вступ)/i.test(t) ? "open" : /^(ask|request|заявк|запрос)/i.test(t) ? "requests" : null),
    hint: ctx.t("invite-mode-hint"),
  });
  if (value === "cancel") return void (await c.reply(ctx.t(CANCELLED)));
  const result = await conversation.external(async (o: BotContext) => {
    if (!o.user) return { error: o.t("track-private-only") };
    try {
      const made = await createInvite(o.deps, o.owner.id, channelId, { name, join_request: value === "requests" });
      await noted(o, "channels.invites.create", { type: "invite", id: made.id }, { name });
      return { id: made.id };
    } catch (e) {
      if (e instanceof AppError)
        return { error: e.code === "telegram_refused" ? o.t("telegram-refused", { reason: e.message }) : problemText(o, e) };
      throw e;
    }
  });
  if ("error" in result) return void (await c.reply(`❌ ${result.error!}`));
  await conversation.external((o) => open(o, inviteScreen, [result.id], o.t("invite-made")));
}

/** One option of invite `id`: the question, then the answer saved through core (or its problem, and another try). */
export async function inviteOptionConversation(conversation: Convo, ctx: DialogContext, id: number, index: number) {
  const option = INVITE_OPTIONS[index];
  if (!option) return;
  await answerOption(
    conversation,
    ctx,
    option,
    async (o, text) => {
      const invite = await ownedInvite(o.deps, o.owner.id, id);
      await updateInvite(
        o.deps,
        o.owner.id,
        id,
        text === "/clear" ? option.clear! : option.parse(text, invite, { now: o.deps.clock.now(), reader: readerOf(o) }),
      );
      await open(o, inviteScreen, [id], o.t("option-saved", { option: o.t(option.label).replace(/^\S+\s/, "") }));
    },
    (o, e) => (e.code === "telegram_refused" ? o.t("telegram-refused", { reason: e.message }) : problemText(o, e)),
  );
}
