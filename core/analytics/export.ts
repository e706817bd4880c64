import { and, desc, eq, gte, lt } from "drizzle-orm";
import type { Deps } from "../deps";
import { FieldError } from "../errors";
import type { ClickRow } from "../../db/schema";
import { parsePeriod } from "./range";
import { rangeOf } from "./stats";
import { ownedLink } from "../links/links";
import { ownerIdOf, personOf, sendToUserChat, userChat, type ChatOwner } from "./telegram";
import { trackingUrl } from "./qr";
import { buildSheetXlsx } from "./xlsx";
import { deviceName, t, type Language } from "../i18n/translate";
import { cellAt, zoneName } from "../i18n/wall";
import { timeZoneOf } from "../i18n/zone";

/** Most rows one export holds (spec: Limits). */
const EXPORT_LIMIT = 10_000;
/** The export's columns, named in the language files as `export-column-<name>`. */
const EXPORT_COLUMNS = [
  "date",
  "ip",
  "country",
  "city",
  "device",
  "os",
  "browser",
  "referer",
  "bot",
  "bot-name",
  "unique",
  "click-id",
  "subs",
] as const;
/** The PDF leaves out the last two columns (the click id, sub1…sub5): a landscape page holds the others with the referer readable. */
const PDF_COLUMNS = EXPORT_COLUMNS.length - 2;
/** The export's column headings in `lang`; the date's names the zone its times are in. */
export const exportColumns = (lang: Language, zone = "UTC", now = new Date()) =>
  EXPORT_COLUMNS.map((c) =>
    c === "date"
      ? t(lang, "tz-column", { column: t(lang, "export-column-date"), zone: zoneName(zone, lang, now) })
      : t(lang, `export-column-${c}`),
  );
export const EXPORT_FORMATS = ["csv", "xlsx", "pdf"] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** One click as the export's cells, in EXPORT_COLUMNS order. */
function exportCells(c: ClickRow, zone: string, yes: string, no: string, device: (name: string) => string): string[] {
  return [
    cellAt(zone, c.clickedAt),
    c.ip ?? "",
    c.country ?? "",
    c.city ?? "",
    c.device ? device(c.device) : "",
    c.os ?? "",
    c.browser ?? "",
    c.referer ?? "",
    c.isBot ? yes : no,
    c.botName ?? "",
    c.isUnique ? yes : no,
    c.clickId ?? "",
    subsCell(c),
  ];
}

/** The click's sub1…sub5 that are set, as `sub1=a, sub3=c`. */
const subsCell = (c: ClickRow) =>
  (["sub1", "sub2", "sub3", "sub4", "sub5"] as const)
    .filter((k) => c[k])
    .map((k) => `${k}=${c[k]}`)
    .join(", ");

/** RFC 4180 quoting; cells that a spreadsheet would run as a formula get a leading apostrophe. */
export function csvCell(s: string): string {
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A CSV file (UTF-8 with a byte-order mark, so spreadsheets read the letters right) of a heading row and rows. */
export function buildCsv(columns: string[], rows: string[][]): Uint8Array {
  const lines = [columns.map(csvCell).join(","), ...rows.map((r) => r.map(csvCell).join(","))];
  return new TextEncoder().encode(`\uFEFF${lines.join("\r\n")}\r\n`);
}

/** The xlsx of the export: one sheet named after the link, a bold frozen header row. */
export function buildXlsx(columns: string[], rows: string[][], sheetName: string): Uint8Array {
  const name = sheetName.slice(0, 31).replace(/[\\/?*:[\]]/g, "_") || "Clicks";
  return buildSheetXlsx(name, columns, [22, 16, 8, 18, 10, 12, 14, 36, 6, 18, 7, 24, 24], rows);
}

export interface ExportRequest {
  format: string;
  period?: string;
}

/**
 * `POST /links/:id/export`: the newest ≤ 10,000 clicks of the period (default 30d) as csv, xlsx or pdf,
 * sent to the user's Telegram chat as a document. `onProgress(done, total)` reports the build.
 */
export async function exportClicks(
  deps: Deps,
  who: ChatOwner,
  linkId: number,
  req: ExportRequest,
  onProgress?: (done: number, total: number) => void | Promise<void>,
): Promise<{ ok: boolean; message: string; rows: number; filename?: string; capped?: boolean; code: string; period: string }> {
  if (!(EXPORT_FORMATS as readonly string[]).includes(req.format))
    throw new FieldError("format", `must be one of ${EXPORT_FORMATS.join(", ")}`);
  const format = req.format as ExportFormat;
  const period = parsePeriod(req.period);
  const link = await ownedLink(deps, ownerIdOf(who), linkId);
  const { lang } = await userChat(deps, who);
  const zone = await timeZoneOf(deps, personOf(who));
  const range = await rangeOf(deps, [link], period);
  const { clicks } = deps.asyncDb.tables;
  const found = await deps.asyncDb
    .select()
    .from(clicks)
    .where(and(eq(clicks.linkId, link.id), gte(clicks.clickedAt, new Date(range.from)), lt(clicks.clickedAt, new Date(range.to))))
    .orderBy(desc(clicks.clickedAt), desc(clicks.id))
    .limit(EXPORT_LIMIT + 1);
  // one row past the limit tells whether older clicks were left out
  const cut = found.length > EXPORT_LIMIT;
  if (cut) found.length = EXPORT_LIMIT;
  if (!found.length)
    return {
      ok: false,
      message: `No clicks on ${link.code} in the chosen period (${period}); nothing was sent`,
      rows: 0,
      code: link.code,
      period,
    };
  const rows: string[][] = [];
  const step = 2_500;
  const [yes, no] = [t(lang, "export-yes"), t(lang, "export-no")];
  for (let i = 0; i < found.length; i += step) {
    for (const c of found.slice(i, i + step)) rows.push(exportCells(c, zone, yes, no, (name) => deviceName(lang, name)));
    await onProgress?.(Math.min(found.length, i + step), found.length);
  }
  const title = t(lang, "export-pdf-title", { url: await trackingUrl(deps, link), period: t(lang, `period-${period}`) });
  const footer = (page: number, pages: number) => t(lang, "export-pdf-page", { page, pages, rows: rows.length });
  const bytes =
    format === "csv"
      ? buildCsv(exportColumns(lang, zone, deps.clock.now()), rows)
      : format === "xlsx"
        ? buildXlsx(exportColumns(lang, zone, deps.clock.now()), rows, link.code)
        : await (await import("./export-pdf")).renderPdfTable(
            title,
            exportColumns(lang, zone, deps.clock.now()).slice(0, PDF_COLUMNS),
            rows.map((r) => r.slice(0, PDF_COLUMNS)),
            footer,
          );
  const filename = `clicks-${link.code}-${period}-${deps.clock.now().toISOString().slice(0, 10)}.${format}`;
  const caption = t(lang, "export-clicks-caption", {
    count: rows.length,
    code: link.code,
    period: t(lang, `period-${period}`),
    format: format.toUpperCase(),
  });
  await sendToUserChat(deps, who, "document", { bytes, filename, caption, open: { kind: "link", id: link.id } });
  const capped = cut ? ` (the newest ${EXPORT_LIMIT.toLocaleString("en-US")}, the export limit)` : "";
  return {
    ok: true,
    message: `Sent ${filename} with ${rows.length.toLocaleString("en-US")} clicks${capped} to your Telegram chat`,
    rows: rows.length,
    filename,
    capped: cut,
    code: link.code,
    period,
  };
}
