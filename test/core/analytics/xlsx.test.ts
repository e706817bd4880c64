import { expect, test } from "bun:test";
import ExcelJS from "exceljs";
import { exportColumns, buildXlsx } from "../../../core/analytics/export";

const load = async (bytes: Uint8Array) => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  return wb;
};

test("the xlsx reads back in exceljs: sheet name, bold frozen header, widths, every cell as written, empty values as empty cells", async () => {
  const rows = [
    [
      "2026-03-30 11:59:30 UTC",
      "203.0.113.7",
      "DE",
      "Köln",
      "desktop",
      "Linux",
      "Firefox",
      `https://ex.example/?q=<script>&a="b"'c'`,
      "no",
      "",
      "yes",
    ],
    ["2026-03-30 11:00:00 UTC", "2001:db8::1", "", "  Москва ", "mobile", "iOS", "Safari", "bad\u0001char", "yes", "TelegramBot", "no"],
  ];
  const wb = await load(buildXlsx(exportColumns("en"), rows, "my/code?"));
  const ws = wb.worksheets[0]!;
  expect(ws.name).toBe("my_code_");
  expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual([
    "Date — UTC",
    "IP",
    "Country",
    "City",
    "Device",
    "OS",
    "Browser",
    "Referer",
    "Bot",
    "Bot name",
    "Unique",
    "Click ID",
    "Sub parameters",
  ]);
  expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);
  expect(ws.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
  expect(ws.getColumn(8).width).toBe(36);
  expect((ws.getRow(2).values as unknown[]).slice(1)).toEqual([...rows[0]!.slice(0, 9), undefined, "yes"]);
  expect((ws.getRow(3).values as unknown[]).slice(1)).toEqual([
    "2026-03-30 11:00:00 UTC",
    "2001:db8::1",
    undefined,
    "  Москва ",
    "mobile",
    "iOS",
    "Safari",
    "badchar",
    "yes",
    "TelegramBot",
    "no",
  ]);
  expect(ws.rowCount).toBe(3);
});

test("an export of 10,000 rows holds every row", async () => {
  const rows = Array.from({ length: 10_000 }, (_, i) => [
    "2026-11-23 10:00:00 UTC",
    `203.0.113.${i % 250}`,
    "DE",
    "Berlin",
    "desktop",
    "Windows",
    "Chrome",
    `https://t.me/c/${i}`,
    "no",
    "",
    i % 2 ? "yes" : "no",
  ]);
  const ws = (await load(buildXlsx(exportColumns("en"), rows, "big"))).worksheets[0]!;
  expect(ws.rowCount).toBe(10_001);
  expect(ws.getRow(10_001).getCell(8).value).toBe("https://t.me/c/9999");
});
