/**
 * The Ads table as a file in the user's Telegram chat (CSV or XLSX), like the click and join
 * exports: the same rows the bot's /ads shows for a period and an order, every figure in its own
 * column, headings in the user's language, the publication's day in the user's time zone.
 */
import type { Deps } from "../deps";
import { FieldError } from "../errors";
import { csvCell } from "../analytics/export";
import { buildSheetXlsx } from "../analytics/xlsx";
import { ownerIdOf, personOf, sendToUserChat, userChat, type ChatOwner } from "../analytics/telegram";
import { t } from "../i18n/translate";
import { listPlacements } from "./placements";
import { getUserSettings } from "../reports/settings";
import { NUMERIC_COLUMNS, placementOrder, tableCells, tableColumns } from "./table";

const WIDTHS = [28, 22, 12, 10, 9, 10, 9, 9, 8, 8, 10, 10, 10, 10, 10, 12, 14, 32];

/** The table's file bytes in `format`. */
function tableFile(format: "csv" | "xlsx", columns: string[], rows: string[][], sheet: string): Uint8Array {
  if (format === "csv")
    return new TextEncoder().encode(
      `\uFEFF${[columns.map(csvCell).join(","), ...rows.map((r) => r.map(csvCell).join(","))].join("\r\n")}\r\n`,
    );
  return buildSheetXlsx(sheet.slice(0, 31).replace(/[\\/?*:[\]]/g, "_"), columns, WIDTHS, rows, NUMERIC_COLUMNS);
}

/**
 * Sends the account's Ads table for `period`, sorted by `sort` (default: cost per subscriber who
 * stayed) in `order` (default: cheapest first for costs, most first for counts), to the user's
 * Telegram chat as a CSV or XLSX document.
 */
export async function exportPlacements(
  deps: Deps,
  who: ChatOwner,
  req: { format: string; period?: string; sort?: string; order?: string },
) {
  const userId = ownerIdOf(who);
  if (req.format !== "csv" && req.format !== "xlsx") throw new FieldError("format", "must be csv or xlsx");
  const sort = req.sort ?? "cost_per_retained";
  // in the order the table shows (listPlacements keeps amounts of money within their currency)
  const list = await listPlacements(deps, userId, { period: req.period ?? "30d", sort, order: req.order ?? placementOrder(sort) });
  const { lang } = await userChat(deps, who);
  const zone = (await getUserSettings(deps, personOf(who))).time_zone;
  const rows = list.map((p) => tableCells(p, zone));
  const period = req.period ?? "30d";
  const filename = `ads-${period}-${deps.clock.now().toISOString().slice(0, 10)}.${req.format}`;
  await sendToUserChat(deps, who, "document", {
    bytes: tableFile(req.format, tableColumns(lang), rows, t(lang, "ads-sheet")),
    filename,
    caption: t(lang, "ads-export-caption", { count: rows.length, period: t(lang, `period-${period}`), format: req.format.toUpperCase() }),
    open: { kind: "ads" },
  });
  return { ok: true, rows: rows.length, filename, message: `Sent ${filename} with ${rows.length} placements to your Telegram chat` };
}
