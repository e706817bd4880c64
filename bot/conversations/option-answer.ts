import type { Conversation } from "@grammyjs/conversations";
import type { BotContext, DialogContext } from "../context";
import { AppError, ValidationError } from "../../core/errors";
import { problemText } from "../problem";
import { whenExamples } from "../../core/i18n/wall";
import { readerOf } from "../i18n";

type Convo = Conversation<BotContext, DialogContext>;

/** What the question of one option needs: its label, its prompt and whether /clear applies. */
export interface AskedOption {
  label: string;
  /** the question (a translation key) */
  prompt: string;
  /** present when /clear may remove the option's value */
  clear?: unknown;
}

/**
 * One option of a tracker, an invite or the like: asks `option`'s question, then saves each answer
 * through `save` (which parses, writes through core and redraws the screen) until one is taken. A
 * problem is said in a sentence and the question stands ("Try again, or /cancel."); /cancel or any
 * other command ends it unchanged; /clear is refused with a sentence when the option cannot be
 * cleared; a thing that is gone meanwhile (404) ends it with a warning. `describe` words a domain
 * error for the user (default: the dialogs' own wording).
 */
export async function answerOption(
  conversation: Convo,
  ctx: DialogContext,
  option: AskedOption,
  save: (o: BotContext, text: string) => Promise<void>,
  describe: (o: BotContext, e: AppError) => string = problemText,
): Promise<void> {
  const { now, reader } = await conversation.external((o) => ({ now: o.deps.clock.now().toISOString(), reader: readerOf(o) }));
  await ctx.reply(
    ctx.t(option.clear ? "option-ask-clearable" : "option-ask", {
      label: ctx.t(option.label),
      prompt: ctx.t(option.prompt, { when: whenExamples(reader, new Date(now)) }),
    }),
  );
  for (;;) {
    const c = await conversation.wait();
    const text = c.message?.text?.trim();
    if (text === undefined || (text.startsWith("/") && text !== "/clear")) return conversation.halt({ next: true });
    const result = await conversation.external(async (o) => {
      try {
        if (text === "/clear" && !option.clear) throw new ValidationError(o.t("option-cannot-clear-generic"));
        await save(o, text);
        return null;
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        return e.status === 404 ? { gone: problemText(o, e) } : { problem: describe(o, e) };
      }
    });
    if (!result) return;
    if ("gone" in result) return void (await c.reply(ctx.t("warning", { text: Bun.escapeHTML(result.gone!) })));
    await c.reply(ctx.t("dialog-try-again", { problem: Bun.escapeHTML(result.problem!) }));
  }
}
