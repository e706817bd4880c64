/**
 * Bun's PostgreSQL driver writes some of its own complaints with console.warn, as plain text: while
 * the database is away, `bun:sql LISTEN "…" failed, retrying: …` about once a second per listening
 * connection. In the service's JSON log stream such a line breaks every reader that expects one JSON
 * object per line. routeDriverLines sends them through the service's logger instead, as warnings,
 * one per kind every ten seconds with the count of those kept quiet; other console.warn calls are
 * left as they are.
 */
import { createRepeatLog, type Logger } from "./log";

/** What marks a line as the driver's own (Bun's built-in `bun:sql` module). */
const DRIVER_LINE = /^bun:sql (\w+)/;

export function routeDriverLines(log: Logger, target: Pick<Console, "warn"> = console): () => void {
  const repeat = createRepeatLog(log);
  const original = target.warn;
  target.warn = (...args: unknown[]) => {
    const first = args[0];
    const m = typeof first === "string" ? DRIVER_LINE.exec(first) : null;
    if (!m) return original.apply(target, args);
    repeat(
      "warn",
      `driver:${m[1]}`,
      `database driver: ${(first as string).slice("bun:sql ".length)}`,
      args.length > 1 ? { extra: args.slice(1).map(String) } : undefined,
    );
  };
  return () => void (target.warn = original);
}
