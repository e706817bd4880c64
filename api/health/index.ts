import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import type { Readiness } from "../../core/readiness";
import { migrationsApplied } from "../../db/migrations-state";
import { createRepeatLog, type RepeatLog } from "../../core/log";

/** How long /readyz waits for the database's answer before it calls the node not ready. */
const HEALTH_TIMEOUT_MS = 2000;

type NotReady = { error: string; message: string };

/**
 * What keeps the node from taking traffic, or null when nothing does: it is draining (shutting
 * down); the database does not answer within HEALTH_TIMEOUT_MS; it lacks a migration this build
 * ships; the click journal cannot be written (an answered click could then be lost).
 */
async function notReady(deps: Pick<Deps, "asyncDb" | "log" | "clicks">, readiness: Readiness, repeat: RepeatLog): Promise<NotReady | null> {
  if (readiness.draining) return { error: "draining", message: "This node is shutting down" };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${HEALTH_TIMEOUT_MS} ms`)), HEALTH_TIMEOUT_MS)),
  );
  try {
    if (!(await Promise.race([migrationsApplied(deps.asyncDb), late])))
      return { error: "migrations_pending", message: "The database lacks migrations this build needs" };
  } catch (e) {
    // a load balancer asks every 2 s, per backend: one line per 10 s, with the count it kept quiet
    repeat("warn", "database", `health check: the database did not answer: ${(e as Error).message}`);
    return { error: "database_unreachable", message: "This node cannot reach its database" };
  } finally {
    clearTimeout(timer);
  }
  if (!deps.clicks.journalWritable()) return { error: "journal_unwritable", message: "This node cannot write its click journal" };
  return null;
}

/**
 * The probes of an orchestrator or load balancer: `/livez` 200 while the process serves requests
 * (restart it when this fails); `/readyz` 200 only while the node can do its work (database
 * reachable, migrations applied, journal writable, not shutting down), else 503 with the reason, so
 * it is taken out of rotation and put back by itself. `/healthz` is `/readyz` under its older name.
 */
export function healthApi(deps: Pick<Deps, "asyncDb" | "log" | "clicks">, readiness: Readiness) {
  const repeat = createRepeatLog(deps.log);
  const ready = async ({ set }: { set: { status?: number | string } }) => {
    const reason = await notReady(deps, readiness, repeat);
    if (!reason) return { ok: true };
    set.status = 503;
    return { ok: false, ...reason };
  };
  return new Elysia({ name: "health" })
    .get("/livez", () => ({ ok: true }), { detail: { summary: "Liveness: 200 while the process serves requests" } })
    .get("/readyz", ready, {
      detail: {
        summary:
          "Readiness: 200 while the database answers, migrations are applied, the click journal is writable and the node is not shutting down; else 503 with the reason",
      },
    })
    .get("/healthz", ready, { detail: { summary: "The same as /readyz (its older name)" } });
}
