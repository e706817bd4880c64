import { shippedMigrations } from "../db/migrations-state";
import type { CliCommand } from "./_command";
import { UsageError } from "./_command";

/**
 * Applies the pending migrations (on PostgreSQL under the migration lock, so nodes starting at the
 * same time wait) and names each one applied. For a rolling upgrade with MIGRATE=skip on the nodes.
 */
export const command: CliCommand = {
  usage: "",
  description: "Apply the database migrations this build ships and name each one applied (MIGRATE=skip leaves them to this command)",
  alwaysMigrates: true,
  run(args, { deps, out }) {
    if (args.length) throw new UsageError("migrate takes no arguments");
    // the database was migrated when the CLI opened it: the handle knows what that applied
    const applied = deps.handle.migrated;
    for (const name of applied) out(`applied ${name}`);
    const total = shippedMigrations(deps.asyncDb.engine).length;
    out(
      applied.length
        ? `${applied.length} migration(s) applied; the database holds all ${total}`
        : `nothing to apply: the database holds all ${total} migrations`,
    );
  },
};
