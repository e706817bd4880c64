/**
 * The fonts the service draws and writes text with: DejaVu Sans (and Sans Mono for the PDF table)
 * from the `dejavu-fonts-ttf` package, and Twemoji (a COLR colour font, `twemoji-colr-font`: the font
 * under the SIL Open Font License 1.1, Twitter's emoji art under CC BY 4.0) for emoji in the charts,
 * such as an invite named "🚀 Crypto". They cover Cyrillic, Latin and emoji, and coming from npm they
 * make the charts and PDFs look the same on every machine, with no system font installed.
 */
import { dirname, join } from "node:path";
import type { GlobalFonts } from "@napi-rs/canvas";

const DIR = join(dirname(Bun.resolveSync("dejavu-fonts-ttf/package.json", import.meta.dir)), "ttf");

/** The path of one of the package's fonts. */
export const fontPath = (file: "DejaVuSans.ttf" | "DejaVuSans-Bold.ttf" | "DejaVuSansMono.ttf" | "DejaVuSansMono-Bold.ttf") =>
  join(DIR, file);

/** One file (a font in parts by Unicode range would be matched one part per family by the canvas). */
const EMOJI_FILE = join(dirname(Bun.resolveSync("twemoji-colr-font/package.json", import.meta.dir)), "twemoji.woff2");
/** The emoji family's name in the charts' font. */
export const EMOJI_FAMILY = "Twemoji";

/**
 * The families the charts name: DejaVu Sans first (Twemoji also has digits and `#`, drawn blank as
 * text), then Twemoji for what DejaVu lacks (a few faces DejaVu has, such as 😀, stay its own), then
 * any sans-serif.
 */
export const CHART_FONT = `DejaVu Sans, ${EMOJI_FAMILY}, sans-serif`;

let registered = false;
/**
 * Registers DejaVu Sans and its bold, and Twemoji, with the canvas, once. The chart modules
 * pass the canvas's font registry, so this file loads no native module (the PDF export reads only
 * `fontPath`).
 */
export function ensureChartFonts(fonts: typeof GlobalFonts): void {
  if (registered) return;
  registered = true;
  fonts.registerFromPath(fontPath("DejaVuSans.ttf"), "DejaVu Sans");
  fonts.registerFromPath(fontPath("DejaVuSans-Bold.ttf"), "DejaVu Sans");
  fonts.registerFromPath(EMOJI_FILE, EMOJI_FAMILY);
}
