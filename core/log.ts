export type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, extra?: unknown): void;
  info(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  error(msg: string, extra?: unknown): void;
}

/** A plain line logger: `2026-01-01T00:00:00.000Z INFO message {extra}`. */
export function createLogger(level: Level = "info", sink: (line: string) => void = (l) => console.log(l)): Logger {
  const at = (lvl: Level) => (msg: string, extra?: unknown) => {
    if (ORDER[lvl] < ORDER[level]) return;
    const tail = extra === undefined ? "" : " " + (extra instanceof Error ? extra.stack ?? extra.message : JSON.stringify(extra));
    sink(`${new Date().toISOString()} ${lvl.toUpperCase()} ${msg}${tail}`);
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Logs a repeated condition (by key) once per interval, with the count of the repeats it kept quiet. */
export type RepeatLog = (level: Level, key: string, msg: string, extra?: unknown) => void;

/**
 * A RepeatLog on `log`: the first line of a key is written at once; later ones within `intervalMs`
 * are counted, and the first after the interval says how many there were ("… (12 more in the last
 * 10 s)"). A database outage then costs a few lines, not one per request or retry.
 */
export function createRepeatLog(log: Logger, intervalMs = 10_000, now: () => number = Date.now): RepeatLog {
  const seen = new Map<string, { at: number; quiet: number }>();
  return (level, key, msg, extra) => {
    const t = now();
    const s = seen.get(key);
    if (s && t - s.at < intervalMs) {
      s.quiet++;
      return;
    }
    const more = s?.quiet ? ` (${s.quiet} more in the last ${Math.round((t - s.at) / 1000)} s)` : "";
    seen.set(key, { at: t, quiet: 0 });
    log[level](msg + more, extra);
  };
}

/** The short form of an error for a repeated line: its message and, when it has one, its code. */
export function briefError(e: unknown): string {
  let err = e as { message?: string; code?: unknown; errno?: unknown; cause?: unknown } | undefined;
  // drizzle's "Failed query: …" says less than the driver's error it wraps
  while (err?.cause && typeof err.cause === "object") err = err.cause as typeof err;
  const code = [err?.code, err?.errno].filter((c) => typeof c === "string" && c).join(" ");
  return `${err?.message ?? String(e)}${code ? ` (${code})` : ""}`;
}
