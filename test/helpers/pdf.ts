/** The text a PDF reader finds in a PDF (pdf.js through unpdf), page by page. */
import { extractText, getDocumentProxy } from "unpdf";

export async function pdfPages(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  return (await extractText(pdf, { mergePages: false })).text;
}
