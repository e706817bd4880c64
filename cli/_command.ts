import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Deps } from "../core/deps";

/** What a CLI command gets: the wired dependencies and a writer for its output. */
export interface CliContext {
  deps: Deps;
  out(line: string): void;
}

/** A module cli/<name>.ts exports `command`; `bun run cli <name> …` runs it. */
export interface CliCommand {
  /** arguments after the command name, e.g. "<user> <plan> [--days N]" */
  usage: string;
  description: string;
  run(args: string[], ctx: CliContext): void | Promise<void>;
}

/** Wrong arguments: the CLI prints the message and the command's usage, exit code 2. */
export class UsageError extends Error {}

/** node:util parseArgs with usage errors instead of TypeErrors. */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
