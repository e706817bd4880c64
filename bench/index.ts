/**
 * `bun run bench <name> [args]` runs bench/<name>.ts in its own process. Without a name, or with an
 * unknown one, it lists the benchmarks there are. Benchmarks print figures; they never fail on speed.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

const DIR = import.meta.dir;

export function benchmarks(): string[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && f !== "index.ts" && !f.startsWith("_"))
    .map((f) => f.slice(0, -3))
    .sort();
}

if (import.meta.main) {
  const [name, ...args] = process.argv.slice(2);
  const all = benchmarks();
  if (!name || !all.includes(name)) {
    if (name) console.error(`Unknown benchmark "${name}".`);
    console.log(
      all.length ? `Benchmarks (bun run bench <name>):\n${all.map((b) => `  ${b}`).join("\n")}` : "No benchmarks yet: add bench/<name>.ts",
    );
    process.exit(name ? 2 : 0);
  }
  const proc = Bun.spawn(["bun", join(DIR, `${name}.ts`), ...args], { stdio: ["inherit", "inherit", "inherit"] });
  process.exit(await proc.exited);
}
