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
