import type { CliCommand } from "./_command";
import { parseCommandArgs, UsageError } from "./_command";
import { backupDatabase } from "../core/admin/backup";

export const command: CliCommand = {
  usage: "<file>",
  description:
    "an online, consistent copy of the SQLite database into a new file (the service may keep running); cluster mode: use pg_dump",
  async run(args, { deps, out }) {
    const { positionals } = parseCommandArgs(args, {});
    if (positionals.length !== 1) throw new UsageError("name one file to write the backup to");
    const { path, bytes } = await backupDatabase(deps, positionals[0]!);
    out(
      `Backed up the database to ${path} (${bytes} bytes). To restore: stop the service, copy it to DATA_DIR/app.db, delete app.db-wal and app.db-shm, start.`,
    );
  },
};
