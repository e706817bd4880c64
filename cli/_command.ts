import type { ServiceDeps } from "../app";

/** What a CLI command gets: the wired dependencies and a writer for its output. */
export interface CliContext<D = ServiceDeps> {
  deps: D;
  out(line: string): void;
}

interface CommandInfo {
  /** arguments after the command name, e.g. "<user> <plan> [--days N]" */
  usage: string;
  description: string;
  /** the command applies pending migrations even when MIGRATE=skip (`migrate` itself) */
  alwaysMigrates?: boolean;
}

/**
 * A module cli/<name>.ts exports `command`; `bun run cli <name> …` runs it, on SQLite or, with
 * DATABASE_URL set, on PostgreSQL. `run` may return an exit code (0 when nothing is returned).
 */
export type CliCommand = CommandInfo & { run(args: string[], ctx: CliContext): void | number | Promise<void | number> };

/** Wrong arguments: the CLI prints the message and the command's usage, exit code 2. */
export class UsageError extends Error {}

type OptionSpec = Record<string, { type: "string" | "boolean" }>;
type Values<O extends OptionSpec> = { [K in keyof O]?: O[K]["type"] extends "boolean" ? boolean : string };

/**
 * Splits arguments into positionals and `--name value` / `--name=value` / `--flag` options.
 * Unknown options and missing values are usage errors. (node:util parseArgs does the same, but the
 * Node typings installed here predate it.)
 */
export function parseCommandArgs<O extends OptionSpec>(args: string[], options: O): { positionals: string[]; values: Values<O> } {
  const positionals: string[] = [];
  const values: Record<string, string | boolean> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const spec = options[name];
    if (!spec) throw new UsageError(`unknown option --${name}`);
    if (spec.type === "boolean") {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      values[name] = true;
    } else {
      const value = inline ?? args[++i];
      if (value === undefined || (inline === undefined && value.startsWith("--"))) throw new UsageError(`--${name} needs a value`);
      values[name] = value;
    }
  }
  return { positionals, values: values as Values<O> };
}
