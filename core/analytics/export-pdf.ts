import { readFileSync } from "node:fs";
import { fontPath } from "../fonts";
import PDFDocument from "pdfkit";

/**
 * The table's fonts, embedded (only the glyphs used): DejaVu Sans Mono for the rows and the header,
 * DejaVu Sans for the title and the footer, from the `dejavu-fonts-ttf` package. They write Cyrillic
 * as well as Latin, so headings are in the user's language and a Russian city, title or referer is
 * written as it is (the standard PDF fonts write Latin-1 only).
 */
let fonts: Record<"mono" | "monoBold" | "sans" | "sansBold", Buffer> | undefined;
const fontFiles = () =>
  (fonts ??= {
    mono: readFileSync(fontPath("DejaVuSansMono.ttf")),
    monoBold: readFileSync(fontPath("DejaVuSansMono-Bold.ttf")),
    sans: readFileSync(fontPath("DejaVuSans.ttf")),
    sansBold: readFileSync(fontPath("DejaVuSans-Bold.ttf")),
  });

/**
 * Column widths in characters. The table is set in a monospace font, so a row is one padded
 * string: 10,000 rows are 10,000 text operations instead of 110,000, which keeps a full export
 * well under a second, and the columns line up exactly.
 */
const CHARS = [23, 15, 7, 14, 10, 10, 12, 40, 3, 16, 10];
const FONT_SIZE = 7;
const ROW_H = 11;

/** Pads or cuts (with …) `s` to exactly `n` characters (code points: an emoji is one). */
function cell(s: string, n: number): string {
  const chars = Array.from(s);
  return chars.length > n ? `${chars.slice(0, n - 1).join("")}…` : s + " ".repeat(n - chars.length);
}

const line = (cells: string[]) => cells.map((c, i) => cell(c, CHARS[i] ?? 12)).join("  ");

/** The parts of pdfkit's embedded font the fast row path uses. */
interface EmbeddedFont {
  id?: string;
  ascender?: number;
  ref?: () => unknown;
  /** the glyph ids of `text` in the document's subset, as 4-digit hex, and their positions */
  encode?: (text: string) => [string[], unknown];
  font?: { hasGlyphForCodePoint?: (cp: number) => boolean };
}
interface PdfInternals {
  _font?: EmbeddedFont;
  page?: { height: number; fonts?: Record<string, unknown> };
}

/**
 * Writes pre-padded monospace rows in one text object per page. `doc.text` costs about a
 * microsecond per character (it lays out every glyph), ≈ 2 s for 10,000 rows; a monospace font
 * needs no layout, so the rows go straight into the page content (the operators pdfkit writes),
 * each character's glyph id looked up once per document (`glyphs`; a character the font lacks is
 * written as "?"). Falls back to `doc.text` if pdfkit's internals ever change shape.
 */
function writeRows(doc: PDFKit.PDFDocument, lines: string[], x: number, y: number, glyphs: Map<string, string>) {
  const { _font: font, page } = doc as unknown as PdfInternals;
  if (!font?.id || !font.ref || !font.encode || !font.font?.hasGlyphForCodePoint || font.ascender === undefined || !page?.fonts) {
    lines.forEach((l, i) => doc.text(l, x, y + i * ROW_H, { lineBreak: false }));
    return;
  }
  const { encode, font: face } = font as Required<EmbeddedFont>;
  const glyphOf = (ch: string) => {
    let hex = glyphs.get(ch);
    if (hex === undefined) {
      hex = encode.call(font, face.hasGlyphForCodePoint!(ch.codePointAt(0)!) ? ch : "?")[0].join("");
      glyphs.set(ch, hex);
    }
    return hex;
  };
  page.fonts[font.id] ??= font.ref();
  const dy = (font.ascender / 1000) * FONT_SIZE;
  const parts = [`q 1 0 0 -1 0 ${page.height} cm BT /${font.id} ${FONT_SIZE} Tf`];
  lines.forEach((l, i) => {
    let hex = "";
    for (const ch of l) hex += glyphOf(ch);
    parts.push(`1 0 0 1 ${x.toFixed(2)} ${(page.height - (y + i * ROW_H) - dy).toFixed(2)} Tm <${hex}> Tj`);
  });
  parts.push("ET Q");
  doc.addContent(parts.join("\n"));
}

/**
 * A readable, paginated table (header repeated on every page, zebra rows, page numbers) as PDF
 * bytes; `footer` words a page's line ("page 2 of 9 · 10,000 rows") in the reader's language.
 */
export function renderPdfTable(
  title: string,
  columns: string[],
  rows: string[][],
  footer: (page: number, pages: number) => string,
): Promise<Uint8Array> {
  const doc = new PDFDocument({ size: "A4", layout: "landscape", margin: 28, info: { Title: title } });
  for (const [name, bytes] of Object.entries(fontFiles())) doc.registerFont(name, bytes);
  const chunks: Uint8Array[] = [];
  doc.on("data", (c: Uint8Array) => chunks.push(c));
  const done = new Promise<Uint8Array>((resolve) => doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks)))));
  const left = doc.page.margins.left;
  const usable = doc.page.width - left - doc.page.margins.right;
  const top = doc.page.margins.top;
  const bottom = doc.page.height - doc.page.margins.bottom - 14;
  const perPage = Math.floor((bottom - top - 20 - ROW_H) / ROW_H);
  const pages = Math.max(1, Math.ceil(rows.length / perPage));
  const header = line(columns);
  const glyphs = new Map<string, string>();
  for (let page = 0; page < pages; page++) {
    if (page) doc.addPage();
    doc.font("sansBold").fontSize(11).fillColor("#111827").text(title, left, top, { lineBreak: false });
    doc
      .font("sans")
      .fontSize(7)
      .fillColor("#6b7280")
      .text(footer(page + 1, pages), left, bottom + 4, { lineBreak: false });
    let y = top + 20;
    doc.rect(left, y - 2, usable, ROW_H).fill("#dbeafe");
    doc
      .font("monoBold")
      .fontSize(FONT_SIZE)
      .fillColor("#111827")
      .text(header, left + 2, y, { lineBreak: false });
    y += ROW_H;
    const slice = rows.slice(page * perPage, (page + 1) * perPage);
    slice.forEach((_, r) => {
      if (r % 2) doc.rect(left, y + r * ROW_H - 2, usable, ROW_H).fill("#f3f4f6");
    });
    doc.font("mono").fontSize(FONT_SIZE).fillColor("#111827");
    writeRows(doc, slice.map(line), left + 2, y, glyphs);
  }
  doc.end();
  return done;
}
