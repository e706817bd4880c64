/**
 * Emoji in invite names are drawn on the charts, in colour, by the font the service ships (Twemoji from
 * npm, core/fonts.ts), not by whatever the machine has installed (or an empty box where it has none).
 */
import { expect, test } from "bun:test";
import { GlobalFonts, createCanvas } from "@napi-rs/canvas";
import sharp from "sharp";
import { CHART_FONT, EMOJI_FAMILY, ensureChartFonts } from "../../../core/fonts";
import { renderJoinChart } from "../../../core/channels/chart";

/** The pixels of `text` drawn at 40 px in `font` on white, as RGBA. */
function draw(text: string, font: string) {
  const canvas = createCanvas(120, 60);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, 120, 60);
  ctx.fillStyle = "#000000";
  ctx.font = `40px ${font}`;
  ctx.fillText(text, 4, 46);
  return ctx.getImageData(0, 0, 120, 60).data;
}

/** Pixels far from grey: colour, which neither a glyph of text nor an empty box has. */
function coloured(px: Uint8ClampedArray): number {
  let n = 0;
  for (let i = 0; i < px.length; i += 4) if (Math.max(px[i]!, px[i + 1]!, px[i + 2]!) - Math.min(px[i]!, px[i + 1]!, px[i + 2]!) > 60) n++;
  return n;
}

test("the charts' font draws emoji in colour with the shipped emoji font, and text with DejaVu Sans", () => {
  ensureChartFonts(GlobalFonts);
  expect(GlobalFonts.has(EMOJI_FAMILY)).toBe(true);
  for (const emoji of ["🚀", "🔥", "🎯", "🇷🇺", "👍🏽"]) {
    const drawn = draw(emoji, CHART_FONT);
    expect({ emoji, coloured: coloured(drawn) > 100 }).toEqual({ emoji, coloured: true });
    // the very pixels the shipped font draws alone: the charts do not depend on a system emoji font
    expect({ emoji, same: Buffer.from(drawn).equals(Buffer.from(draw(emoji, EMOJI_FAMILY))) }).toEqual({ emoji, same: true });
  }
  // letters and digits stay DejaVu Sans (the emoji font's own digits would draw nothing)
  expect(Buffer.from(draw("Ад 12", CHART_FONT)).equals(Buffer.from(draw("Ад 12", "DejaVu Sans")))).toBe(true);
});

test("a Russian joins chart with emoji in its invites' names has their colours in the legend", async () => {
  const days = ["11-24", "11-25", "11-26"];
  const chart = async (names: [string, string]) => {
    const png = await renderJoinChart({
      lang: "ru",
      title: "Клуб рекламы",
      labels: days,
      joins: [
        { name: names[0], data: [1, 5, 3] },
        { name: names[1], data: [2, 1, 4] },
      ],
      leaves: [0, 1, 1],
    });
    return sharp(png).raw().ensureAlpha().toBuffer({ resolveWithObject: true });
  };
  const plain = await chart(["Реклама", "Посев"]);
  const withEmoji = await chart(["🚀 Реклама", "💬 Посев 🔥"]);
  // the emoji add colour to the legend (the rest of the chart is the same in both)
  const extra = coloured(new Uint8ClampedArray(withEmoji.data)) - coloured(new Uint8ClampedArray(plain.data));
  expect(extra).toBeGreaterThan(300);
});
