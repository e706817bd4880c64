import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { AppError, FieldError } from "../errors";

/**
 * Writes a consistent copy of the SQLite database to `target` while the service keeps running.
 * `VACUUM INTO` reads the whole database inside one read transaction (a snapshot: writers go on in
 * WAL mode, and nothing written after the snapshot is half in the copy) and writes a compact,
 * self-contained file with no WAL of its own. bun:sqlite does not expose the C backup API; this
 * statement is SQLite's other online backup and gives the same guarantee. The target must not
 * exist. Returns its absolute path and size in bytes.
 *
 * Cluster mode keeps its data in PostgreSQL, whose own tool makes the backup (`pg_dump`): this
 * function refuses there with that advice.
 */
export async function backupDatabase(deps: Pick<Deps, "asyncDb">, target: string): Promise<{ path: string; bytes: number }> {
  if (deps.asyncDb.engine === "postgres")
    throw new AppError(
      400,
      "use_pg_dump",
      'in cluster mode the data is in PostgreSQL: back it up with pg_dump --format=custom --file=<file> "$DATABASE_URL" (docs/security.md, Backup and restore)',
    );
  const path = resolve(target);
  if (existsSync(path)) throw new FieldError("file", `${path} exists already; name a new file`);
  await (deps.asyncDb as unknown as { run(q: ReturnType<typeof sql>): Promise<unknown> }).run(sql`VACUUM INTO ${path}`);
  return { path, bytes: Bun.file(path).size };
}
