/**
 * Cleanup that happens however a test run ends: normally, on a failure, on SIGINT or SIGTERM, or
 * killed outright. A PostgreSQL server started with `pg_ctl` leaves the test process's group and
 * outlives it, and a directory is never removed by a process that was killed, so each test process
 * starts one small reaper of its own (reaper-process.ts), detached from its process group (a Ctrl-C
 * to the group does not reach it), and tells it what to clean up; the reaper does it when the test
 * process has gone. What a test stopped itself is forgotten.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let reaper: ChildProcess | null = null;
let next = 0;

function reaperOf(): ChildProcess {
  if (!reaper) {
    reaper = spawn(process.execPath, [new URL("./reaper-process.ts", import.meta.url).pathname], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
    });
    // neither the reaper nor the pipe to it keeps the test process alive
    reaper.unref();
    (reaper.stdin as unknown as { unref?: () => void }).unref?.();
  }
  return reaper;
}

/** What to clean up: a process to kill, a command to run (e.g. a server's stop), a directory to remove. */
export type CleanupTask = { kill: number } | { run: string[] } | { remove: string };

/** Has `task` carried out once this process has ended, unless the returned function is called first (the test cleaned up itself). */
export function cleanUpAtExit(task: CleanupTask): () => void {
  const id = ++next;
  const r = reaperOf();
  r.stdin!.write(`${JSON.stringify({ id, ...task })}\n`);
  return () => void r.stdin!.write(`${JSON.stringify({ forget: id })}\n`);
}

/** A fresh temporary directory, removed when this process ends (if the test has not removed it before). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanUpAtExit({ remove: dir });
  return dir;
}
