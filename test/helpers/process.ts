/**
 * Runs a project entry point (main.ts, cli.ts) as a real subprocess and collects its output.
 */
import { resolve } from "node:path";
import { cleanUpAtExit } from "./reaper";

export const ROOT = resolve(import.meta.dir, "../..");

/** A minimal environment: no variable of the developer's shell leaks into the service's config. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...extra };
}

/** Spawns `bun <args>`; the process is killed when this test process ends, if it has not ended before. */
export function spawnService(args: string[], env: Record<string, string>, cwd = ROOT) {
  const proc = Bun.spawn(["bun", ...args], { cwd, env, stdout: "pipe", stderr: "pipe" });
  const forget = cleanUpAtExit({ kill: proc.pid });
  void proc.exited.then(forget);
  let out = "";
  let err = "";
  const pump = async (stream: ReadableStream<Uint8Array>, add: (s: string) => void) => {
    const dec = new TextDecoder();
    for await (const chunk of stream) add(dec.decode(chunk, { stream: true }));
  };
  const done = Promise.all([pump(proc.stdout, (s) => (out += s)), pump(proc.stderr, (s) => (err += s))]);
  return {
    proc,
    get out() {
      return out;
    },
    get err() {
      return err;
    },
    /** Polls the output until `re` matches (or the process ends / the deadline passes). */
    async waitForOutput(re: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = (out + err).match(re);
        if (m) return m;
        if (proc.exitCode !== null || Date.now() > deadline)
          throw new Error(`no output matching ${re} (exit ${proc.exitCode}); stdout:\n${out}\nstderr:\n${err}`);
        await Bun.sleep(20);
      }
    },
    async exit(): Promise<number> {
      const code = await proc.exited;
      await done;
      return code;
    },
  };
}

/** Runs a command to completion. */
export async function run(args: string[], env: Record<string, string>, cwd = ROOT) {
  const s = spawnService(args, env, cwd);
  const code = await s.exit();
  return { code, stdout: s.out, stderr: s.err };
}
