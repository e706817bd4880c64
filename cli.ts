/**
 * Operator CLI: `bun run cli <command> [args]` runs cli/<command>.ts's `run(deps, args)`.
 * (Minimal dispatcher; the platform's cli.ts replaces it at merge.)
 */
import { ConfigError, loadConfig } from "./config";
import { createDeps } from "./core";
import type { Deps } from "./core/deps";

const COMMANDS: Record<string, () => Promise<{ run: (deps: Deps, args: string[]) => Promise<number>; usage: string }>> = {
  source: () => import("./cli/source"),
};

const [command, ...args] = process.argv.slice(2);
const load = command ? COMMANDS[command] : undefined;
if (!load) {
  console.log(`Usage: bun run cli <command>\nCommands: ${Object.keys(COMMANDS).join(", ")}`);
  process.exit(command ? 1 : 0);
}
let config;
try {
  config = loadConfig();
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(`Configuration error: ${e.message}`);
    process.exit(1);
  }
  throw e;
}
const deps = createDeps(config, { log: (await import("./core/log")).createLogger("warn") });
const mod = await load();
const code = await mod.run(deps, args);
deps.handle.close();
process.exit(code);
