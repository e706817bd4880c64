/**
 * `bun run scopes`: prints docs/scopes.md (the scope each /api endpoint needs) generated from the real
 * app's routes; `bun run scopes --write` writes it and the same table into README.md, and the role
 * table into docs/workspaces.md. A developer tool for the docs, so it lives beside
 * neither the operator CLI (cli/, which works on a service's data) nor the benchmarks.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../config";
import { createDeps } from "../app";
import { createApi } from "../api/app";
import { rolesMarkdown, scopesMarkdown } from "../api/shared/scope-table";

export const SCOPES_DOC = join(import.meta.dir, "..", "docs", "scopes.md");
export const README = join(import.meta.dir, "..", "README.md");
export const WORKSPACES_DOC = join(import.meta.dir, "..", "docs", "workspaces.md");
const START = "<!-- scopes:start -->";
const END = "<!-- scopes:end -->";

/** docs/workspaces.md with the role table (core/tokens/roles.ts) between its roles markers. */
export function workspacesWithRoles(doc: string): string {
  return between(doc, "<!-- roles:start -->", "<!-- roles:end -->", rolesMarkdown());
}

function between(text: string, start: string, end: string, table: string): string {
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`the document lacks the ${start} … ${end} markers`);
  return `${text.slice(0, a + start.length)}\n${table}\n${text.slice(b)}`;
}

/** The table rows of the generated doc. */
export function scopesTable(doc: string): string {
  return doc
    .split("\n")
    .filter((l) => l.startsWith("|"))
    .join("\n");
}

/** README.md with the text between the scopes markers replaced by `table`. */
export function readmeWithScopes(readme: string, table: string): string {
  return between(readme, START, END, table);
}

/** Builds the app on a throw-away DATA_DIR (nothing of a real service is touched) and renders the table. */
export function generateScopesDoc(): string {
  const dataDir = mkdtempSync(join(tmpdir(), "linkbot-scopes-"));
  const deps = createDeps(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error" }));
  try {
    return scopesMarkdown(createApi(deps).routes);
  } finally {
    deps.handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const doc = generateScopesDoc();
  if (process.argv.includes("--write")) {
    writeFileSync(SCOPES_DOC, doc);
    writeFileSync(README, readmeWithScopes(readFileSync(README, "utf8"), scopesTable(doc)));
    writeFileSync(WORKSPACES_DOC, workspacesWithRoles(readFileSync(WORKSPACES_DOC, "utf8")));
    console.log(`wrote ${SCOPES_DOC}, the table in ${README} and the role table in ${WORKSPACES_DOC}`);
  } else process.stdout.write(doc);
}
