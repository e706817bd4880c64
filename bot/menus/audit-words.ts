import type { AuditEntry } from "../../core/workspaces";
import type { BotContext } from "../context";
import { date } from "../i18n";

/**
 * One entry of the audit log in words: when, who, what was done to what (`links.create` on link 12 →
 * "Alice: created link 12"; `channels.requests.approve` → "approved request"). Areas and verbs the language files know are said in words, others as they are.
 */
export function auditLine(ctx: BotContext, e: AuditEntry): string {
  // `<area>[.<what>].<verb>`: the verb is the last step, what it was done to the one before
  const steps = e.action.split(".");
  const verb = steps.at(-1) ?? "";
  const area = steps.at(-2) ?? "";
  return ctx.t("ws-audit-line", {
    at: date(ctx, e.at, true),
    who: Bun.escapeHTML(e.actor.name ?? ctx.t("ws-audit-service")),
    verb,
    area,
    id: e.subject.id === null ? "" : Bun.escapeHTML(String(e.subject.id)),
  });
}
