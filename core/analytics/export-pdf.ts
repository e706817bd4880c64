import PDFDocument from "pdfkit";

/**
 * Column widths in characters. The table is set in Courier (monospace), so a row is one padded
 * string: 10,000 rows are 10,000 text operations instead of 110,000, which keeps a full export
 * well under a second, and the columns line up exactly.
 */
const CHARS = [23, 15, 7, 14, 8, 10, 12, 40, 3, 16, 6];
const FONT_SIZE = 7;
const ROW_H = 11;

/** Pads or cuts (with …) `s` to exactly `n` characters; characters outside Latin-1 become '?'. */
function cell(s: string, n: number): string {
  const latin = s.replace(/[^\x20-\x7e\xa0-\xff]/g, "?");
  return latin.length > n ? `${latin.slice(0, n - 1)}…` : latin.padEnd(n);
}

const line = (cells: string[]) => cells.map((c, i) => cell(c, CHARS[i] ?? 12)).join("  ");

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
/** WinAnsi bytes (the standard fonts' encoding) of a Latin-1 string, as PDF hex. */
const winAnsiHex = (s: string) => {
  let out = "";
  for (let i = 0; i < s.length; i++) out += s[i] === "…" ? "85" : HEX[s.charCodeAt(i) & 0xff];
  return out;
};

interface PdfInternals {
  _font?: { id?: string; ascender?: number; ref?: () => unknown };
  page?: { height: number; fonts?: Record<string, unknown> };
}

/**
 * Writes pre-padded monospace rows in one text object per page. `doc.text` costs about a
 * microsecond per character (it measures and kerns every glyph), ≈ 2 s for 10,000 rows;
 * Courier needs neither, so the rows go straight into the page content (the same operators
 * pdfkit writes). Falls back to `doc.text` if pdfkit's internals ever change shape.
 */
function writeRows(doc: PDFKit.PDFDocument, lines: string[], x: number, y: number) {
  const { _font: font, page } = doc as unknown as PdfInternals;
  if (!font?.id || !font.ref || font.ascender === undefined || !page?.fonts) {
    lines.forEach((l, i) => doc.text(l, x, y + i * ROW_H, { lineBreak: false }));
    return;
  }
  page.fonts[font.id] ??= font.ref();
  const dy = (font.ascender / 1000) * FONT_SIZE;
  const parts = [`q 1 0 0 -1 0 ${page.height} cm BT /${font.id} ${FONT_SIZE} Tf`];
  lines.forEach((l, i) =>
    parts.push(`1 0 0 1 ${x.toFixed(2)} ${(page.height - (y + i * ROW_H) - dy).toFixed(2)} Tm <${winAnsiHex(l)}> Tj`),
  );
  parts.push("ET Q");
  doc.addContent(parts.join("\n"));
}

/** A readable, paginated table (header repeated on every page, zebra rows, page numbers) as PDF bytes. */
export function renderPdfTable(title: string, columns: string[], rows: string[][]): Promise<Uint8Array> {
  const doc = new PDFDocument({ size: "A4", layout: "landscape", margin: 28, info: { Title: title } });
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
  for (let page = 0; page < pages; page++) {
    if (page) doc.addPage();
    doc.font("Helvetica-Bold").fontSize(11).fillColor("#111827").text(title, left, top, { lineBreak: false });
    doc
      .font("Helvetica")
      .fontSize(7)
      .fillColor("#6b7280")
      .text(`page ${page + 1} of ${pages} · ${rows.length.toLocaleString("en-US")} rows`, left, bottom + 4, { lineBreak: false });
    let y = top + 20;
    doc.rect(left, y - 2, usable, ROW_H).fill("#dbeafe");
    doc
      .font("Courier-Bold")
      .fontSize(FONT_SIZE)
      .fillColor("#111827")
      .text(header, left + 2, y, { lineBreak: false });
    y += ROW_H;
    const slice = rows.slice(page * perPage, (page + 1) * perPage);
    slice.forEach((_, r) => {
      if (r % 2) doc.rect(left, y + r * ROW_H - 2, usable, ROW_H).fill("#f3f4f6");
    });
    doc.font("Courier").fontSize(FONT_SIZE).fillColor("#111827");
    writeRows(doc, slice.map(line), left + 2, y);
  }
  doc.end();
  return done;
}
