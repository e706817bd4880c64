/**
 * The click writers send the clicks table's columns from one descriptor derived from the table's
 * declaration: it covers every column the databases have (both engines), and its two encodings
 * carry every kind of value.
 */
import { expect, test } from "bun:test";
import { CLICK_COLUMNS, INSERTED_COLUMNS, copyLine, sqliteValues } from "../../../core/clicks/columns";
import type { ClickRow } from "../../../db/schema";
import { onBothDatabases } from "../../helpers/async-engines";

onBothDatabases((open, engine) => {
  test("the descriptor names every column of the clicks table, in the table's order", async () => {
    const { sqlite, sql } = await open();
    const names =
      engine === "sqlite"
        ? (sqlite!.query("select name from pragma_table_info('clicks') order by cid").all() as { name: string }[]).map((r) => r.name)
        : (
            (await sql!`select column_name from information_schema.columns where table_name = 'clicks' order by ordinal_position`) as {
              column_name: string;
            }[]
          ).map((r) => r.column_name);
    expect(names.length).toBeGreaterThan(20);
    expect(CLICK_COLUMNS.map((c) => c.name)).toEqual(names);
    expect(INSERTED_COLUMNS.map((c) => c.name)).toEqual(names.filter((n) => n !== "id"));
  });
});

const row: ClickRow = {
  id: 7,
  linkId: 3,
  clickedAt: new Date("2026-11-28T06:00:00.123Z"),
  ip: "198.51.100.7",
  country: "DE",
  city: "Berlin",
  device: "desktop",
  browser: "Chrome",
  os: "Windows",
  referer: "https://t.me/chan\twith\\odd\nchars\r",
  uaId: 12,
  isBot: true,
  botName: null,
  isUnique: false,
  rule: 0,
  variant: null,
  clickId: "3_AbCdEfG1z",
  sub1: "net a",
  sub2: null,
  sub3: null,
  sub4: null,
  sub5: "5",
  fbclid: "IwAR0",
};

test("every column of a click goes into both encodings: SQLite's bound values and a COPY line", () => {
  const values: (string | number | null)[] = [];
  expect(sqliteValues(row, values, 0)).toBe(INSERTED_COLUMNS.length);
  expect(values).toEqual(
    INSERTED_COLUMNS.map(({ key }) =>
      key === "clickedAt" ? row.clickedAt.getTime() : typeof row[key] === "boolean" ? (row[key] ? 1 : 0) : row[key],
    ) as (string | number | null)[],
  );
  const line = copyLine(row);
  expect(line.endsWith("\n")).toBe(true);
  const fields = line.slice(0, -1).split("\t");
  expect(fields).toHaveLength(CLICK_COLUMNS.length);
  const at = (key: keyof ClickRow) => fields[CLICK_COLUMNS.findIndex((c) => c.key === key)];
  expect([at("id"), at("clickedAt"), at("isBot"), at("isUnique"), at("botName"), at("rule"), at("variant")]).toEqual([
    "7",
    "2026-11-28T06:00:00.123Z",
    "t",
    "f",
    "\\N",
    "0",
    "\\N",
  ]);
  // tab, backslash, newline and carriage return escaped as COPY's text format reads them
  expect(at("referer")).toBe("https://t.me/chan\\twith\\\\odd\\nchars\\r");
  expect(at("clickId")).toBe("3_AbCdEfG1z");
});
