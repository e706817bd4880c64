/**
 * The audit action of a change, named after the API route that makes it. The API records its write
 * routes under these names (api/shared/audit.ts) and the bot names its own writes by the same routes
 * (bot/audited.ts), so one change reads the same in the log whichever side made it.
 */
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

/** True for the methods that change something (and are recorded). */
export const isWriteMethod = (method: string): boolean => method in VERBS;
