import type { Deps } from "../../core/deps";
import { recordAudit } from "../../core/workspaces";
import { auditAction, isWriteMethod } from "../../core/workspaces/audit-action";

/** Routes that record their own entries (workspace management) or act on the person, not a workspace (sign-in). */
const NOT_AUDITED = /^\/api\/(workspaces|auth)(\/|$)/;
/**
 * Events the workspace receives rather than changes made to it: a conversion reported by the
 * advertiser's server is data, like a click, and would fill the log with sales. Everything about
 * postbacks and their keys is audited.
 */
const EVENTS = new Set(["POST /api/conversions"]);

/** The id a write acted on: the path's last id, else the id of what it answered (a created thing). */
function subjectId(params: Record<string, string> | undefined, response: unknown): string | number | null {
  const ids = Object.entries(params ?? {}).filter(([k]) => k === "id" || k.endsWith("id") || k.endsWith("Id"));
  if (ids.length) return ids[ids.length - 1]![1];
  const body = response as { id?: unknown } | null;
  return body && typeof body === "object" && (typeof body.id === "number" || typeof body.id === "string") ? body.id : null;
}

export interface AuditedCall {
  method: string;
  route: string;
  status: number;
  params?: Record<string, string>;
  body?: unknown;
  response: unknown;
  workspaceId: number;
  actorId: number;
}

/**
 * Records a successful write route in its workspace's audit log: every create, change, delete,
 * revoke and approve the API does, from one place rather than from each route. The body (secrets
 * dropped) is the entry's details. A failure to record is logged and does not fail the request: the
 * change itself was made.
 */
export async function auditWrite(deps: Pick<Deps, "asyncDb" | "clock" | "log">, call: AuditedCall): Promise<void> {
  if (!isWriteMethod(call.method) || call.status >= 400 || NOT_AUDITED.test(call.route) || EVENTS.has(`${call.method} ${call.route}`))
    return;
  const { action, type } = auditAction(call.method, call.route);
  const input =
    call.body && typeof call.body === "object" && !(call.body instanceof FormData) ? (call.body as Record<string, unknown>) : null;
  try {
    await recordAudit(deps, {
      workspaceId: call.workspaceId,
      actorId: call.actorId,
      action,
      subject: { type, id: subjectId(call.params, call.response) },
      details: input && Object.keys(input).length ? { input } : null,
    });
  } catch (e) {
    deps.log.warn(`audit: could not record ${action}`, e);
  }
}
