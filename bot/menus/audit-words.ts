import type { AuditEntry } from "../../core/workspaces";
import type { BotContext } from "../context";
import { date } from "../i18n";

/**
 * One entry of the audit log in words: when, who, what was done to what (`links.create` on link 12 →
 * "created · link 12"). Areas and verbs the language files know are said in words, others as they are.
 */
export function auditLine(ctx: BotContext, e: AuditEntry): string {
  const [area = "", verb = ""] = e.action.split(".");
  return ctx.t("ws-audit-line", {
    at: date(ctx, e.at, true),
    who: Bun.escapeHTML(e.actor.name ?? ctx.t("ws-audit-service")),
    verb,
    area,
    id: e.subject.id === null ? "" : Bun.escapeHTML(String(e.subject.id)),
  });
}
