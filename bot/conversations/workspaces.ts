/** Settings → ➕ New team: one answer (its name); the person owns it and works in it from then on. */
import type { Conversation } from "@grammyjs/conversations";
import type { BotContext, DialogContext } from "../context";
import { createWorkspace } from "../../core/workspaces";
import { AppError } from "../../core/errors";
import { open, screenAt } from "../menus/nav";
import { problemText } from "../problem";
import { switchTo } from "../menus/workspaces";

export async function newTeamConversation(conversation: Conversation<BotContext, DialogContext>, ctx: DialogContext) {
  await ctx.reply(ctx.t("ws-new-team-ask"));
  for (;;) {
    const c = await conversation.wait();
    const name = c.message?.text?.trim();
    if (name === undefined || name.startsWith("/")) return conversation.halt({ next: true });
    const problem = await conversation.external(async (o) => {
      try {
        const ws = await createWorkspace(o.deps, o.user.id, name);
        await switchTo(o, ws.id);
        await open(o, screenAt("settings"), [], o.t("ws-created", { name: Bun.escapeHTML(ws.name) }));
        return null;
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        return problemText(o, e);
      }
    });
    if (problem === null) return;
    await c.reply(ctx.t("dialog-try-again", { problem: Bun.escapeHTML(problem) }));
  }
}
