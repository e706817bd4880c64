import type { CliCommand } from "./_command";
import { parseCommandArgs, UsageError } from "./_command";
import { FILE_STORAGE_DRIVERS, type FileStorageDriver } from "../config";
import { moveStoredFiles } from "../core/secure/move-files";
import { AppError } from "../core/errors";

export const command: CliCommand = {
  usage: "migrate --to <local|postgres|s3> [--verbose]",
  description: "Moves every stored file to another storage driver, each verified by SHA-256 before its record switches to the new copy",
  async run(args, { deps, out }) {
    const { positionals, values } = parseCommandArgs(args, { to: { type: "string" }, verbose: { type: "boolean" } });
    if (positionals[0] !== "migrate" || positionals.length !== 1) throw new UsageError("the only subcommand is migrate");
    const to = values.to?.toLowerCase() as FileStorageDriver | undefined;
    if (!to || !FILE_STORAGE_DRIVERS.includes(to)) throw new UsageError("--to must be local, postgres or s3");
    try {
      deps.storage.store(to);
    } catch (e) {
      throw new AppError(400, "storage_unavailable", `cannot move files to ${to}: ${(e as Error).message}`);
    }
    const report = await moveStoredFiles(deps, to, values.verbose ? out : undefined);
    out(`Moved ${report.moved} file(s) to ${to}; ${report.already} were there already.`);
    for (const location of report.missing) out(`Missing: ${location} (its record has no bytes anywhere; left as it is)`);
    for (const f of report.failed) out(`Not moved: ${f.location}: ${f.reason}`);
    if (deps.storage.driver !== to)
      out(
        `New uploads still go to ${deps.storage.driver}: set FILE_STORAGE=${to}, restart the nodes, then run this again to move what arrived meanwhile.`,
      );
    return report.failed.length > 0 ? 1 : 0;
  },
};
