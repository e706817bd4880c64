/**
 * The reaper's own process (see reaper.ts): reads tasks from stdin, one JSON object a line, until
 * stdin ends, which is when the test process that started it has ended, however it ended (its end
 * of the pipe closes even under SIGKILL). Then it carries out every task not forgotten: kills
 * processes, runs stop commands, removes directories.
 */
import { rmSync } from "node:fs";

type Task = { id: number; kill?: number; run?: string[]; remove?: string };
const tasks = new Map<number, Task>();
let buffer = "";
const decoder = new TextDecoder();
for await (const chunk of Bun.stdin.stream()) {
  buffer += decoder.decode(chunk, { stream: true });
  for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
    const m = JSON.parse(buffer.slice(0, i)) as Task & { forget?: number };
    buffer = buffer.slice(i + 1);
    if (m.forget !== undefined) tasks.delete(m.forget);
    else tasks.set(m.id, m);
  }
}
// newest first: a server's stop command before the directory it lives in is removed
for (const task of [...tasks.values()].reverse()) {
  try {
    if (task.kill) process.kill(task.kill, "SIGKILL");
  } catch {}
  if (task.run) Bun.spawnSync(task.run, { stdout: "ignore", stderr: "ignore" });
  if (task.remove) rmSync(task.remove, { recursive: true, force: true });
}
