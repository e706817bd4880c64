/**
 * A confirmation screen for a delete, shared by the secure-sharing screens: the question, "Yes" doing
 * it and opening the screen its outcome names, and "Keep it" going back.
 */
import type { BotContext } from "../context";
import { l } from "../i18n";
import { act, back, createScreen, idOf, open, payload, type Screen } from "./nav";

/** The whole text of a confirmation, which reads what it names itself (the screen has no other data). */
export type Question = (ctx: BotContext) => string | Promise<string>;
export type Outcome = (
  ctx: BotContext,
) => { screen: Screen; view: number[]; notice: string } | Promise<{ screen: Screen; view: number[]; notice: string }>;

/**
 * A confirmation screen for a delete: the question, "Yes" doing it and opening the screen `run`
 * names, and "Keep it" back to `backTo` (drawn for the object's id unless `backView` says otherwise).
 */
export function confirmScreen(
  id: string,
  question: Question,
  run: Outcome,
  backTo: string,
  backView: (ctx: BotContext) => number[] | Promise<number[]> = (c) => [idOf(c)],
) {
  const s = createScreen(id, 1, { body: question });
  s.text({ text: l("secure-yes-delete"), payload: payload(s) }, (ctx) =>
    act(
      ctx,
      async () => {
        const next = await run(ctx);
        await open(ctx, next.screen, next.view, next.notice);
      },
      "folders",
    ),
  );
  back(s, l("secure-keep-it"), backTo, backView);
  return s;
}
