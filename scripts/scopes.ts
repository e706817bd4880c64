/**
 * `bun run scopes`: prints docs/scopes.md (the scope each /api endpoint needs) generated from the real
 * app's routes; `bun run scopes --write` writes it. A developer tool for the docs, so it lives beside
 * neither the operator CLI (cli/, which works on a service's data) nor the benchmarks.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../config";
import { createDeps } from "../core";
import { createApi } from "../api/app";
import { scopesMarkdown } from "../api/shared/scope-table";

export const SCOPES_DOC = join(import.meta.dir, "..", "docs", "scopes.md");

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
    console.log(`wrote ${SCOPES_DOC}`);
  } else process.stdout.write(doc);
}
