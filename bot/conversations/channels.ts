import type { Conversation } from "@grammyjs/conversations";
import { write } from "../audited";
import type { BotContext, DialogContext } from "../context";
import { createInvite, ownedInvite, updateInvite } from "../../core/channels/invites";
import { AppError } from "../../core/errors";
import { INVITE_OPTIONS, type InviteOption } from "../menus/invite-options";
import { inviteScreen } from "../menus/channels";
import { open } from "../menus/nav";
import { problemText } from "../problem";
import { readerOf } from "../i18n";
import { answerOption } from "./option-answer";
import { askChoice } from "./choice";
import { parsePrice, type Price } from "../../core/placements/price";
import { workspaceCurrency } from "../../core/workspaces";
import { telegramRefusal } from "../telegram-refusal";

type Convo = Conversation<BotContext, DialogContext>;

const CANCELLED = "dialog-cancelled-nothing-created";

/** A price as people write it (a number alone in `currency`), or null when it is not one. */
function readPrice(text: string, currency: string): Price | null {
  try {
    return parsePrice(text, currency);
  } catch (e) {
    if (e instanceof AppError) return null;
    throw e;
  }
}

/**
 * "New invite" in channel `channelId`: a name, then whether people join at once or ask to join
 * (a button), then what the ad cost (typed as people write prices, or the "No price" button), then
 * the invite is made through core (the same checks and Telegram call as the API). A name Telegram
 * would refuse, or a price that is not one, is asked again.
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
  const currency = await conversation.external(async (o) => (await workspaceCurrency(o.deps, o.owner.id)).effective);
  const price = await askChoice<Price | "none">(conversation, c, ctx.t("invite-ask-price", { currency }), {
    choices: [[ctx.t("invite-no-price"), "none"]],
    perRow: 1,
    read: (t) => readPrice(t, currency),
    hint: ctx.t("invite-price-rule", { currency }),
  });
  if (price.value === "cancel") return void (await price.c.reply(ctx.t(CANCELLED)));
  const cost = price.value === "none" ? null : price.value;
  const result = await conversation.external(async (o: BotContext) => {
    if (!o.user) return { error: o.t("track-private-only") };
    try {
      const input = { name, join_request: value === "requests", ...(cost ? { cost } : {}) };
      const made = await write(o, createInvite, channelId, input);
      return { id: made.id };
    } catch (e) {
      if (e instanceof AppError) return { error: e.code === "telegram_refused" ? telegramRefusal(o, e.message) : problemText(o, e) };
      throw e;
    }
  });
  if ("error" in result) return void (await price.c.reply(`❌ ${Bun.escapeHTML(result.error!)}`));
  await conversation.external((o) => open(o, inviteScreen, [result.id], o.t(cost ? "invite-made-priced" : "invite-made")));
}

/** A few-way option of invite `id`: one press (or its word typed), saved through core. */
async function inviteChoiceConversation(conversation: Convo, ctx: DialogContext, id: number, option: InviteOption) {
  const choices = option.choices!;
  const { c, value } = await askChoice(conversation, ctx, `${ctx.t(option.label)}: ${ctx.t(option.prompt)}`, {
    choices: choices.buttons.map(([key, input]) => [ctx.t(key), input]),
    perRow: 1,
    read: choices.read,
    hint: ctx.t("invite-refuse-approval"),
  });
  if (value === "cancel") return void (await c.reply(ctx.t("cancelled")));
  const failed = await conversation.external(async (o) => {
    try {
      await write(o, updateInvite, id, value);
      await open(o, inviteScreen, [id], o.t("option-saved", { option: o.t(option.label).replace(/^\S+\s/, "") }));
      return null;
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      return e.code === "telegram_refused" ? telegramRefusal(o, e.message) : problemText(o, e);
    }
  });
  if (failed) await c.reply(ctx.t("warning", { text: Bun.escapeHTML(failed) }));
}

/** One option of invite `id`: the question, then the answer saved through core (or its problem, and another try). */
export async function inviteOptionConversation(conversation: Convo, ctx: DialogContext, id: number, index: number) {
  const option = INVITE_OPTIONS[index];
  if (!option) return;
  if (option.choices) return await inviteChoiceConversation(conversation, ctx, id, option);
  await answerOption(
    conversation,
    ctx,
    option,
    async (o, text) => {
      const invite = await ownedInvite(o.deps, o.owner.id, id);
      await write(
        o,
        updateInvite,
        id,
        text === "/clear" ? option.clear! : option.parse(text, invite, { now: o.deps.clock.now(), reader: readerOf(o) }),
      );
      await open(o, inviteScreen, [id], o.t("option-saved", { option: o.t(option.label).replace(/^\S+\s/, "") }));
    },
    (o, e) => (e.code === "telegram_refused" ? telegramRefusal(o, e.message) : problemText(o, e)),
  );
}
