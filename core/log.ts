import pino from "pino";
import { requestContext } from "./request-context";

export type Level = "debug" | "info" | "warn" | "error";

export interface Logger {
  debug(msg: string, extra?: unknown): void;
  info(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  error(msg: string, extra?: unknown): void;
}

/** How the lines are written: one JSON object per line, or the readable form for a person. */
export type LogFormat = "json" | "pretty";

/**
 * The service's logger, through pino: one JSON object per line with `level` (its name), `time`
 * (ISO 8601), `msg`, the id of the request being handled (`requestId`, read from the request's
 * context, so a line written deep in core names its request) and the extra: an error as `err`
 * (type, message, stack), a plain object's fields as they are, anything else as `extra`.
 *
 * `format` "pretty" writes the same lines for a person instead:
 * `2026-01-01T00:00:00.000Z INFO message [request id] {extra}`. The service writes JSON to stdout
 * unless stdout is a terminal (main.ts and config.ts decide); a `sink` (tests, the CLI's stderr)
 * gets the readable lines unless told otherwise. With `node` (the service's NODE_NAME) every line
 * carries it as `node`, so the lines of several nodes can be told apart once shipped together.
 */
export function createLogger(
  level: Level = "info",
  sink?: (line: string) => void,
  format: LogFormat = sink ? "pretty" : "json",
  node?: string,
): Logger {
  const write = sink ?? ((line: string) => console.log(line));
  const out =
    format === "json" ? (line: string) => write(line.endsWith("\n") ? line.slice(0, -1) : line) : (line: string) => write(readable(line));
  const p = pino(
    {
      level,
      base: node ? { node } : null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // the request being handled, if any
      mixin: () => requestContext.getStore() ?? {},
      serializers: { err: pino.stdSerializers.err },
    },
    { write: out },
  );
  const at = (lvl: Level) => (msg: string, extra?: unknown) => {
    if (extra === undefined) p[lvl](msg);
    else if (extra instanceof Error) p[lvl]({ err: extra }, msg);
    else if (extra !== null && typeof extra === "object" && !Array.isArray(extra) && Object.getPrototypeOf(extra) === Object.prototype)
      p[lvl](extra as object, msg);
    else p[lvl]({ extra }, msg);
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/**
 * Characters that would let text from outside (a chat title, a file name) forge or hide a line in
 * the readable format: control characters (a newline starts a new "entry"), line and paragraph
 * separators, and the bidirectional overrides that reorder what a terminal shows.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** `text` on one line, its unsafe characters written as escapes (`\n`, `\u001b`). */
function escapeForLog(text: string): string {
  return text.replace(UNSAFE, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** An error's stack, each line escaped and the lines after the first indented, so none reads as an entry of its own. */
const indentedStack = (stack: string) => stack.split(/\r?\n/).map(escapeForLog).join("\n    ");

/** A JSON line of createLogger as a person reads it: one line per entry, whatever the text holds (a stack aside). */
function readable(json: string): string {
  const { level, time, msg, requestId, err, extra, node: _node, ...fields } = JSON.parse(json) as Record<string, unknown>;
  const id = requestId ? ` [${escapeForLog(String(requestId))}]` : "";
  const tail = err
    ? ` ${indentedStack(String((err as { stack?: string; message?: string }).stack ?? (err as { message?: string }).message))}`
    : extra !== undefined
      ? ` ${escapeForLog(JSON.stringify(extra))}`
      : Object.keys(fields).length
        ? ` ${escapeForLog(JSON.stringify(fields))}`
        : "";
  return `${time} ${String(level).toUpperCase()} ${escapeForLog(String(msg))}${id}${tail}`;
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
