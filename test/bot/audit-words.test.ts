/**
 * Every change the audit log can hold reads in words in both languages: each action a write route
 * records (its method and path, core/workspaces/audit-action.ts) and each that core records itself.
 * A slug such as `postback_keys` or `workspace` left in the line is an untranslated area or verb.
 */
import { afterAll, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { endpointScopes } from "../../api/shared/scope-table";
import { auditAction, isWriteMethod } from "../../core/workspaces/audit-action";
import { i18n } from "../../bot/i18n";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const t = createTestApp();
afterAll(() => t.close());

/** What core records by name, not through a route. */
const CORE_ACTIONS = [
  "workspace.create",
  "workspace.update",
  "invites.create",
  "members.join",
  "members.role",
  "members.remove",
  "members.leave",
  "team_chat.connect",
  "team_chat.disconnect",
];

test("each action of the audit log reads in words in Russian and English: no slug is left in the line", () => {
  const routeActions = endpointScopes(t.app.routes)
    .filter((e) => isWriteMethod(e.method) && !e.path.startsWith("/api/auth/"))
    .map((e) => auditAction(e.method, e.path).action);
  const actions = [...new Set([...routeActions, ...CORE_ACTIONS])].sort();
  expect(actions.length).toBeGreaterThan(40);
  const left: string[] = [];
  const line = (lang: "ru" | "en", verb: string, area: string) =>
    i18n.t(lang, "ws-audit-line", { at: "1", who: "Анна", verb, area, id: "7" });
  for (const lang of ["ru", "en"] as const)
    for (const action of actions) {
      const steps = action.split(".");
      const [verb, area] = [steps.at(-1)!, steps.at(-2) ?? ""];
      // a step the language file has no words for is printed as it is: said with another name, the line changes the same way
      const fallback = (step: string, other: string) => step !== "" && other.replaceAll("zzz", step) === line(lang, verb, area);
      if (fallback(verb, line(lang, "zzz", area)) || fallback(area, line(lang, verb, "zzz")))
        left.push(`${lang} ${action}: ${line(lang, verb, area)}`);
    }
  expect(left).toEqual([]);
  // the mini-app's change log words each area and verb by its own keys, for the areas its page names
  const page = readFileSync(join(import.meta.dir, "../../miniapp/src/pages/audit.ts"), "utf8");
  const missing: string[] = [];
  for (const action of actions) {
    const steps = action.split(".");
    const [verb, area] = [steps.at(-1)!, steps.at(-2) ?? ""];
    if (area && !page.includes(`"${area}"`)) missing.push(`audit.ts names no ${area}`);
    for (const lang of ["ru", "en"] as const) {
      if (area && i18n.t(lang, `app-ws-area-${area}`) === `app-ws-area-${area}`) missing.push(`${lang} app-ws-area-${area}`);
      if (i18n.t(lang, `app-ws-verb-${verb}`) === `app-ws-verb-${verb}`) missing.push(`${lang} app-ws-verb-${verb}`);
    }
  }
  expect([...new Set(missing)]).toEqual([]);
});
