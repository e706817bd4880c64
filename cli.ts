/**
 * Operator CLI: `bun run cli <command> [args]`. Each command is a module cli/<command>.ts exporting
 * `command` (see cli/_command.ts); adding a file adds a command. With DATABASE_URL set, every command
 * runs against that PostgreSQL database (migrations applied first, under the advisory lock).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "./config";
import { openDeps } from "./app";
import { createLogger } from "./core/log";
import { AppError } from "./core/errors";
import { UsageError, type CliCommand } from "./cli/_command";

const DIR = join(import.meta.dir, "cli");

function commandNames(): string[] {
  return readdirSync(DIR)
    .filter((f) => /^[a-z][a-z0-9-]*\.ts$/.test(f))
    .map((f) => f.slice(0, -3))
    .sort();
}

async function load(name: string): Promise<CliCommand> {
  return ((await import(join(DIR, `${name}.ts`))) as { command: CliCommand }).command;
}

async function help(): Promise<string> {
  const lines = ["Usage: bun run cli <command> [arguments]", "", "Commands:"];
  for (const name of commandNames()) {
    const c = await load(name);
    lines.push(`  ${name} ${c.usage}`, `      ${c.description}`);
  }
  return lines.join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    console.log(await help());
    return name ? 0 : 2;
  }
  if (!commandNames().includes(name)) {
    console.error(`Unknown command "${name}".\n\n${await help()}`);
    return 2;
  }
  const command = await load(name);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`Configuration error: ${e.message}`);
    return 1;
  }
  // logs go to stderr so that stdout carries only the command's output
  const log = createLogger(config.logLevel === "info" ? "warn" : config.logLevel, (l) => console.error(l));
  let close: (() => unknown) | undefined;
  let code: void | number;
  try {
    const deps = await openDeps(command.alwaysMigrates ? { ...config, migrate: "auto" } : config, { log }).catch((e: Error) => {
      if (!config!.databaseUrl) throw e;
      throw new AppError(503, "database_unreachable", `could not open the PostgreSQL database of DATABASE_URL: ${e.message}`);
    });
    close = () => deps.handle.close();
    code = await command.run(args, { deps, out: (line) => console.log(line) });
    return typeof code === "number" ? code : 0;
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`Error: ${e.message}\nUsage: bun run cli ${name} ${command.usage}`);
      return 2;
    }
    if (e instanceof AppError) {
      console.error(`Error: ${e.message}`);
      return 1;
    }
    // preparing DATA_DIR (the kept JWT secret) as the dependencies open
    if (e instanceof ConfigError) {
      console.error(`Configuration error: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await close?.();
  }
}

process.exit(await main(process.argv.slice(2)));
