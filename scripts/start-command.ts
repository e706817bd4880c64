/**
 * What `bun start` runs, read from a checkout's package.json: the variables its start script sets
 * before Bun starts (the `NAME=value` words it opens with, such as the allocator's
 * MIMALLOC_PURGE_DELAY) and the command after them. The container image (scripts/check-deploy.ts
 * holds its ENV and CMD to it) and the benchmarks' servers run the service the same way.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export interface StartCommand {
  env: Record<string, string>;
  argv: string[];
}

export function startCommand(checkout = resolve(import.meta.dir, "..")): StartCommand {
  const pkg = JSON.parse(readFileSync(join(checkout, "package.json"), "utf8")) as { scripts?: { start?: string } };
  const words = (pkg.scripts?.start ?? "").trim().split(/\s+/).filter(Boolean);
  const env: Record<string, string> = {};
  let i = 0;
  for (; i < words.length; i++) {
    const m = /^([A-Z_][A-Z0-9_]*)=(\S*)$/.exec(words[i]!);
    if (!m) break;
    env[m[1]!] = m[2]!;
  }
  return { env, argv: words.slice(i) };
}
