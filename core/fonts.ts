/**
 * The fonts the service draws and writes text with: DejaVu Sans (and Sans Mono for the PDF table)
 * from the `dejavu-fonts-ttf` package. They cover Cyrillic and Latin, and coming from npm they make
 * the charts and PDFs look the same on every machine, with no system font installed.
 */
import { dirname, join } from "node:path";
import type { GlobalFonts } from "@napi-rs/canvas";

const DIR = join(dirname(Bun.resolveSync("dejavu-fonts-ttf/package.json", import.meta.dir)), "ttf");

/** The path of one of the package's fonts. */
export const fontPath = (file: "DejaVuSans.ttf" | "DejaVuSans-Bold.ttf" | "DejaVuSansMono.ttf" | "DejaVuSansMono-Bold.ttf") =>
  join(DIR, file);

/** The family the charts name (with fallbacks a canvas may have besides). */
export const CHART_FONT = "DejaVu Sans, sans-serif";

let registered = false;
/**
 * Registers DejaVu Sans and its bold with the canvas, once. The chart modules pass the canvas's
 * font registry, so this file loads no native module (the PDF export reads only `fontPath`).
 */
export function ensureChartFonts(fonts: typeof GlobalFonts): void {
  if (registered) return;
  registered = true;
  fonts.registerFromPath(fontPath("DejaVuSans.ttf"), "DejaVu Sans");
  fonts.registerFromPath(fontPath("DejaVuSans-Bold.ttf"), "DejaVu Sans");
}
