/**
 * The dialogs' own buttons. A dialog question accepts a press or a typed answer in one wait, so
 * its buttons are plain callback buttons read inside the conversation (a menu would handle the
 * press outside the wait and lose the typed alternative). Their data is the choice's position,
 * `dlg:<n>`, read back by `pressed`; no dialog builds or parses its own callback strings.
 */
import { InlineKeyboard } from "grammy";
import type { Conversation } from "@grammyjs/conversations";
import type { BotContext, DialogContext } from "../context";

type Convo = Conversation<BotContext, DialogContext>;

/** Prefix of every dialog button's callback data; a press after its dialog ended is answered by `dialogButtons`. */
export const DIALOG_PREFIX = "dlg:";

/** A keyboard whose buttons carry their position in `labels` (rows of labels, numbered in reading order). */
export function dialogKeyboard(rows: string[][]): InlineKeyboard {
  const kb = new InlineKeyboard();
  let n = 0;
  for (const [i, row] of rows.entries()) {
    if (i) kb.row();
    for (const label of row) kb.text(label, `${DIALOG_PREFIX}${n++}`);
  }
  return kb;
}

/** What a dialog button's press on an earlier question (one that is no longer asked) is told (its key). */
export const EXPIRED_CHOICE = "choice-expired";

/**
 * The position of the button of question `asked` this update presses (answering the query);
 * undefined when it presses no dialog button, "stale" for a dialog button of another message.
 */
export async function pressed(c: DialogContext, asked: { message_id: number }): Promise<number | "stale" | undefined> {
  const data = c.callbackQuery?.data;
  if (!data?.startsWith(DIALOG_PREFIX)) return undefined;
  const n = Number(data.slice(DIALOG_PREFIX.length));
  if (c.callbackQuery!.message?.message_id !== asked.message_id || !Number.isInteger(n) || n < 0) {
    await c.answerCallbackQuery({ text: c.t(EXPIRED_CHOICE) });
    return "stale";
  }
  await c.answerCallbackQuery();
  return n;
}

export type Choice<T> = { c: DialogContext; value: T | "cancel" };

/**
 * Asks `question` with one button per choice (`perRow` to a row) and a Cancel button, and waits for
 * a press or a typed answer read by `read` (`hint` when it reads nothing, or on /skip, which a button
 * question cannot skip). The question loses its buttons once answered; any other command or another
 * button leaves the dialog (the update is handled as usual).
 */
export async function askChoice<T>(
  conversation: Convo,
  ctx: DialogContext,
  question: string,
  opts: { choices: [string, T][]; perRow: number; read: (typed: string) => T | null; hint: string },
): Promise<Choice<T>> {
  const rows: string[][] = [];
  opts.choices.forEach(([label], i) => (i % opts.perRow ? rows.at(-1)!.push(label) : rows.push([label])));
  const asked = await ctx.reply(question, { reply_markup: dialogKeyboard([...rows, [ctx.t("choice-cancel")]]) });
  for (;;) {
    const c = await conversation.wait();
    const typed = c.message?.text?.trim();
    const n = await pressed(c, asked);
    if (n === "stale") continue;
    let value: T | "cancel" | null;
    if (n !== undefined) value = n === opts.choices.length ? "cancel" : (opts.choices[n]?.[1] ?? null);
    else if (typed !== undefined && !typed.startsWith("/")) value = opts.read(typed);
    // /skip belongs to the dialog's text questions; here it would end the dialog and leave its next answer to other features
    else if (typed === "/skip") value = null;
    else return conversation.halt({ next: true });
    if (value === null) {
      await c.reply(opts.hint);
      continue;
    }
    await c.api.editMessageReplyMarkup(asked.chat.id, asked.message_id).catch(() => undefined);
    return { c, value };
  }
}
