import PDFDocument from "pdfkit";

/** Relative column widths of the export table (landscape A4). */
const WEIGHTS = [13, 10, 5, 10, 7, 8, 9, 16, 4, 10, 5];

/** Cuts `s` so it fits `width` points at the current font (short strings skip the measurement). */
function fit(doc: PDFKit.PDFDocument, s: string, width: number): string {
  if (!s || s.length * 7 * 0.6 <= width) return s; // Helvetica glyphs are at most ~0.6 em wide at 7 pt, bar W/M
  if (doc.widthOfString(s) <= width) return s;
  let cut = Math.max(1, Math.floor((s.length * width) / doc.widthOfString(s)));
  while (cut > 1 && doc.widthOfString(`${s.slice(0, cut)}…`) > width) cut--;
  return `${s.slice(0, cut)}…`;
}

type Fragment = (this: PDFKit.PDFDocument, text: string, x: number, y: number, options: object) => void;
const FRAGMENT_OPTIONS = { textWidth: 0, wordCount: 1 };

/**
 * Writes one cell. `doc.text` measures every string twice (≈ 3 s for 10,000 rows × 11 cells), so
 * cells go through pdfkit's fragment writer with the measurement skipped (nothing here needs it:
 * no underline, links or alignment); if a pdfkit release drops that method we fall back to `text`.
 */
function writeCell(doc: PDFKit.PDFDocument, text: string, x: number, y: number) {
  const fragment = (doc as unknown as { _fragment?: Fragment })._fragment;
  if (fragment) fragment.call(doc, text, x, y, FRAGMENT_OPTIONS);
  else doc.text(text, x, y, { lineBreak: false });
}

/** A readable, paginated table (header repeated on every page, zebra rows, page numbers) as PDF bytes. */
export function renderPdfTable(title: string, columns: string[], rows: string[][]): Promise<Uint8Array> {
  const doc = new PDFDocument({ size: "A4", layout: "landscape", margin: 28, bufferPages: false, info: { Title: title } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Uint8Array>((resolve) => doc.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks)))));
  const left = doc.page.margins.left;
  const usable = doc.page.width - left - doc.page.margins.right;
  const total = WEIGHTS.reduce((s, w) => s + w, 0);
  const widths = WEIGHTS.map((w) => (w / total) * usable);
  const xs = widths.map((_, i) => left + widths.slice(0, i).reduce((s, w) => s + w, 0));
  const rowH = 13;
  const bottom = doc.page.height - doc.page.margins.bottom - 14;
  let page = 1;
  let y = 0;
  const header = () => {
    doc.font("Helvetica-Bold").fontSize(11).fillColor("#111827").text(title, left, doc.page.margins.top, { lineBreak: false });
    doc.font("Helvetica").fontSize(7).fillColor("#6b7280").text(`page ${page}`, left, bottom + 4, { lineBreak: false });
    y = doc.page.margins.top + 20;
    doc.rect(left, y - 2, usable, rowH).fill("#dbeafe");
    doc.font("Helvetica-Bold").fontSize(7.5).fillColor("#111827");
    columns.forEach((c, i) => doc.text(c, xs[i]! + 2, y + 1, { lineBreak: false }));
    y += rowH;
    doc.font("Helvetica").fontSize(7);
  };
  header();
  rows.forEach((row, r) => {
    if (y + rowH > bottom) {
      doc.addPage();
      page++;
      header();
    }
    if (r % 2) doc.rect(left, y - 2, usable, rowH).fill("#f3f4f6");
    doc.fillColor("#111827");
    row.forEach((value, i) => {
      // Standard PDF fonts cover Latin-1 only; other characters become '?'
      const text = fit(doc, value.replace(/[^\x20-\x7e\xa0-\xff…]/g, "?"), widths[i]! - 4);
      if (text) writeCell(doc, text, xs[i]! + 2, y + 1);
    });
    y += rowH;
  });
  doc.end();
  return done;
}
