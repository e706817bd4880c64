/**
 * Operator CLI: `bun run cli <command> [args]`. Each command is a module cli/<command>.ts exporting
 * `command` (see cli/_command.ts); adding a file adds a command.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { assertDataLayerAvailable, ConfigError, loadConfig } from "./config";
import { createDeps } from "./core";
import { createLogger } from "./core/log";
import { AppError } from "./core/errors";
import { UsageError, type CliCommand } from "./cli/_command";

const DIR = join(import.meta.dir, "cli");

function commandNames(): string[] {
  return readdirSync(DIR).filter((f) => /^[a-z][a-z0-9-]*\.ts$/.test(f)).map((f) => f.slice(0, -3)).sort();
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
  let config;
  try {
    config = loadConfig();
    assertDataLayerAvailable(config);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`Configuration error: ${e.message}`);
    return 1;
  }
  // logs go to stderr so that stdout carries only the command's output
  const deps = createDeps(config, { log: createLogger(config.logLevel === "info" ? "warn" : config.logLevel, (l) => console.error(l)) });
  try {
    const code = await command.run(args, { deps, out: (line) => console.log(line) });
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
    throw e;
  } finally {
    deps.handle.close();
  }
}

process.exit(await main(process.argv.slice(2)));
