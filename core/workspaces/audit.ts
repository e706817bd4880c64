import { and, desc, eq, gte, lt, lte, type SQL } from "drizzle-orm";
import type { Deps } from "../deps";
import { FieldError } from "../errors";
import { first, totalRows, type AsyncDbOrTx } from "../../db/async";

/** What an audit entry is about: `{type: "link", id: 12}`. */
interface AuditSubject {
  type: string;
  id: number | string | null;
}

export interface AuditInput {
  workspaceId: number;
  /** the person who did it; null for the service itself */
  actorId: number | null;
  /** `<area>.<verb>`, e.g. `links.create`, `members.role` */
  action: string;
  subject: AuditSubject;
  /** what was sent (secrets dropped), or `{before, after}` for a change that needs both */
  details?: Record<string, unknown> | null;
}

/** How long entries are kept. */
const AUDIT_RETENTION_MS = 365 * 86_400_000;

/** Keys whose values never go into the log (a password, a token's secret…), at any depth. */
const SECRET_KEY = /pass(word)?|secret|token|otp|code_?hash|signature|credential|init_?data|authorization/i;
const MAX_STRING = 500;

/** `value` with secrets replaced by "***" and long strings cut, so an entry can be shown to every member. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 5) return "…";
  if (typeof value === "string") return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redact(v, depth + 1));
  if (value && typeof value === "object") {
    if (value instanceof Date) return value.toISOString();
    if (value instanceof Blob) return value instanceof File ? `file ${value.name}` : "file";
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? "***" : redact(v, depth + 1)]));
  }
  return value;
}

/**
 * Writes one audit entry: who did what to which thing in a workspace. The API records every successful
 * write route at its edge (api/shared/audit.ts); the bot calls this from its write paths.
 */
export async function recordAudit(deps: { asyncDb: AsyncDbOrTx; clock: Deps["clock"] }, entry: AuditInput): Promise<void> {
  const { auditLog } = deps.asyncDb.tables;
  await deps.asyncDb.insert(auditLog).values({
    workspaceId: entry.workspaceId,
    actorId: entry.actorId,
    action: entry.action,
    subjectType: entry.subject.type,
    subjectId: entry.subject.id == null ? null : String(entry.subject.id),
    details: entry.details ? (redact(entry.details) as Record<string, unknown>) : null,
    at: deps.clock.now(),
  });
}

export interface AuditFilter {
  action?: string;
  actorId?: number;
  from?: Date;
  to?: Date;
}

export interface AuditEntry {
  at: string;
  actor: { id: number | null; name: string | null };
  action: string;
  subject: { type: string; id: string | null };
  details: Record<string, unknown> | null;
}

function whereOf(db: AsyncDbOrTx, workspaceId: number, f: AuditFilter): SQL {
  const { auditLog } = db.tables;
  if (f.from && f.to && f.from.getTime() > f.to.getTime()) throw new FieldError("from", "must not be after to");
  const parts: (SQL | undefined)[] = [
    eq(auditLog.workspaceId, workspaceId),
    // an action filter names one action (`links.create`) or an area (`links`)
    f.action ? (f.action.includes(".") ? eq(auditLog.action, f.action) : gte(auditLog.action, `${f.action}.`)) : undefined,
    f.action && !f.action.includes(".") ? lt(auditLog.action, `${f.action}/`) : undefined,
    f.actorId ? eq(auditLog.actorId, f.actorId) : undefined,
    f.from ? gte(auditLog.at, f.from) : undefined,
    f.to ? lte(auditLog.at, f.to) : undefined,
  ];
  return and(...parts)!;
}

/** A page of a workspace's entries, newest first, with the number matching the filter. */
export async function auditPage(
  deps: { asyncDb: AsyncDbOrTx },
  workspaceId: number,
  opts: AuditFilter & { page: number; limit: number },
): Promise<{ data: AuditEntry[]; total: number; page: number; limit: number }> {
  const { auditLog, users } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .select({ entry: auditLog, firstName: users.firstName, username: users.username, email: users.email, total: totalRows() })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(whereOf(deps.asyncDb, workspaceId, opts))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(opts.limit)
    .offset((opts.page - 1) * opts.limit);
  let total = rows[0]?.total ?? 0;
  if (!rows.length && opts.page > 1) {
    const { auditLog: a } = deps.asyncDb.tables;
    total =
      first(
        await deps.asyncDb
          .select({ n: totalRows() })
          .from(a)
          .where(whereOf(deps.asyncDb, workspaceId, opts))
          .limit(1),
      )?.n ?? 0;
  }
  const data = rows.map(({ entry: e, firstName, username, email }) => ({
    at: e.at.toISOString(),
    actor: { id: e.actorId, name: e.actorId == null ? null : (firstName ?? (username ? `@${username}` : (email ?? null))) },
    action: e.action,
    subject: { type: e.subjectType, id: e.subjectId },
    details: e.details ?? null,
  }));
  return { data, total, page: opts.page, limit: opts.limit };
}

/** Deletes entries older than the retention (a year); returns how many went. */
export async function pruneAudit(deps: Pick<Deps, "asyncDb" | "clock">): Promise<number> {
  const { auditLog } = deps.asyncDb.tables;
  const before = new Date(deps.clock.now().getTime() - AUDIT_RETENTION_MS);
  return (await deps.asyncDb.delete(auditLog).where(lt(auditLog.at, before)).returning({ id: auditLog.id })).length;
}
