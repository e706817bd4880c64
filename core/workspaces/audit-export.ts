import type { Deps } from "../deps";
import { buildCsv } from "../analytics/export";
import { buildSheetXlsx } from "../analytics/xlsx";
import { FieldError } from "../errors";
import { sendToUserChat, userChat } from "../analytics/telegram";
import { t } from "../i18n/translate";
import { cellAt, zoneName } from "../i18n/wall";
import { timeZoneOf } from "../i18n/zone";
import { auditPage, type AuditFilter } from "./audit";
import { memberRole } from "./members";
import { getWorkspace } from "./workspaces";

/** Most entries one export holds, newest first. */
const AUDIT_EXPORT_LIMIT = 10_000;
/** The file kinds an export comes in, as click exports (their PDF aside: details do not fit a page). */
export const AUDIT_EXPORT_FORMATS = ["csv", "xlsx"] as const;
type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];
/** The xlsx columns' widths: time, who, action, what, details. */
const XLSX_WIDTHS = [20, 18, 26, 18, 60];
/** The columns after the time, named in the language files. */
const COLUMNS = ["ws-audit-column-actor", "ws-audit-column-action", "ws-audit-column-subject", "ws-audit-column-details"] as const;

/**
 * Sends the workspace's audit log (the filter's entries, newest first, at most 10,000) as a CSV or
 * XLSX file to the person's own Telegram chat, as click exports are sent. Any member may.
 */
export async function exportAudit(
  deps: Pick<Deps, "asyncDb" | "clock" | "telegram">,
  actorId: number,
  workspaceId: number,
  filter: AuditFilter,
  format: AuditExportFormat | string = "csv",
): Promise<{ ok: boolean; message: string; rows: number; filename?: string }> {
  if (!(AUDIT_EXPORT_FORMATS as readonly string[]).includes(format))
    throw new FieldError("format", `must be one of ${AUDIT_EXPORT_FORMATS.join(", ")}`);
  await memberRole(deps, actorId, workspaceId, "viewer");
  const { lang } = await userChat(deps, actorId);
  const zone = await timeZoneOf(deps, actorId);
  const { data } = await auditPage(deps, workspaceId, { ...filter, page: 1, limit: AUDIT_EXPORT_LIMIT });
  if (!data.length) return { ok: false, message: "No audit entries match; nothing was sent", rows: 0 };
  const rows = data.map((e) => [
    cellAt(zone, new Date(e.at)),
    e.actor.name ?? (e.actor.id == null ? "" : `#${e.actor.id}`),
    e.action,
    e.subject.id == null ? e.subject.type : `${e.subject.type} ${e.subject.id}`,
    e.details ? JSON.stringify(e.details) : "",
  ]);
  const now = deps.clock.now();
  const columns = [
    t(lang, "tz-column", { column: t(lang, "ws-audit-column-at"), zone: zoneName(zone, lang, now) }),
    ...COLUMNS.map((key) => t(lang, key)),
  ];
  const ws = await getWorkspace(deps, actorId, workspaceId);
  const filename = `audit-${workspaceId}-${now.toISOString().slice(0, 10)}.${format}`;
  await sendToUserChat(deps, actorId, "document", {
    bytes: format === "xlsx" ? buildSheetXlsx(t(lang, "ws-audit-sheet"), columns, XLSX_WIDTHS, rows) : buildCsv(columns, rows),
    filename,
    caption: t(lang, "ws-audit-export-caption", { count: rows.length, workspace: ws.name }),
  });
  return {
    ok: true,
    message: `Sent ${filename} with ${rows.length.toLocaleString("en-US")} entries to your Telegram chat`,
    rows: rows.length,
    filename,
  };
}
