import type { Deps } from "../../core/deps";
import { recordAudit } from "../../core/workspaces";

const VERBS: Record<string, string> = { POST: "create", PUT: "update", PATCH: "update", DELETE: "delete" };

/**
 * The audit action of a write route, from its method and path: `POST /api/links` → `links.create`,
 * `PATCH /api/links/:id` → `links.update`, `POST /api/channels/:id/requests/:rid/approve` →
 * `channels.requests.approve` (a POST whose last step is a word after an id names its own verb).
 */
export function auditAction(method: string, path: string): { action: string; type: string } {
  const steps = path
    .replace(/^\/api\//, "")
    .replace(/\/$/, "")
    .split("/");
  const names = steps.filter((s) => !s.startsWith(":"));
  const last = steps[steps.length - 1]!;
  const verbInPath = method === "POST" && !last.startsWith(":") && steps.slice(0, -1).some((s) => s.startsWith(":"));
  const area = verbInPath ? names.slice(0, -1) : names;
  const verb = verbInPath ? last : (VERBS[method] ?? method.toLowerCase());
  const type = area[area.length - 1]!.replace(/ies$/, "y")
    .replace(/(ch|sh|x|ss)es$/, "$1")
    .replace(/s$/, "");
  return { action: [...area, verb].join(".").replace(/-/g, "_"), type };
}

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
  if (!(call.method in VERBS) || call.status >= 400 || NOT_AUDITED.test(call.route) || EVENTS.has(`${call.method} ${call.route}`)) return;
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
