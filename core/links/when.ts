/**
 * Reads a moment typed by a person (the bot's option steps): a duration from now (`30m`, `2h`,
 * `3d`, `1w`), a date (`2026-05-01`, midnight UTC) or a date and time in UTC (`2026-05-01 18:30`),
 * or a full ISO 8601 timestamp. Returns null when it is none of these.
 */
export function parseWhen(text: string, now: Date): Date | null {
  const s = text.trim();
  const rel = /^\+?(\d{1,4})\s*(m|min|h|d|w)$/i.exec(s);
  if (rel) {
    const unit = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[rel[2]!.toLowerCase() as "m"]!;
    return new Date(now.getTime() + Number(rel[1]) * unit);
  }
  const abs = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?(Z|[+-]\d{2}:?\d{2})?$/.exec(s);
  if (!abs) return null;
  const d = new Date(`${abs[1]}T${abs[2] ?? "00:00"}${abs[2] && abs[2].length === 5 ? ":00" : ""}${abs[3] ?? "Z"}`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** An ISO 8601 date or date-time; without a zone it is UTC (the server's own time zone never counts). */
export function parseDate(value: string): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
  if (!m) return null;
  const d = new Date(`${m[1]}T${m[2] ?? "00:00"}${m[3] ?? "Z"}`);
  return Number.isNaN(d.getTime()) ? null : d;
}
