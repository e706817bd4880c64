/**
 * Summary images: Chart.js drawn on @napi-rs/canvas, composed into one tall card that stays legible
 * on a phone (1080 px wide, large type), then optimised with sharp.
 */
import { createCanvas, GlobalFonts, type SKRSContext2D } from "@napi-rs/canvas";
import { CHART_FONT, ensureChartFonts } from "../fonts";
import { Chart, registerables, type ChartConfiguration } from "chart.js";
import sharp from "sharp";
import { numberIn, t, type Language } from "../i18n/translate";

Chart.register(...registerables);

const WIDTH = 1080;
const PAD = 40;
const COLORS = ["#2563eb", "#16a34a", "#f59e0b", "#dc2626", "#7c3aed", "#0891b2", "#db2777", "#65a30d", "#9ca3af"];

/** One labelled series of a bar or doughnut panel. */
export interface Breakdown {
  title: string;
  items: { name: string; count: number }[];
}

export interface SummaryCard {
  /** the language of the chart's own words (series, titles, "No clicks") */
  lang: Language;
  title: string;
  subtitle: string;
  /** big numbers across the top, e.g. [["Clicks", "1,234"], …] */
  tiles: [string, string][];
  /** one bucket per day, or per hour for short ranges (`unit`) */
  timeline: { labels: string[]; clicks: number[]; unique: number[]; unit?: "day" | "hour" };
  /** rendered two per row under the timeline */
  breakdowns: Breakdown[];
}

/** Draws a chart on its own canvas, copies it onto `target` at (x, y), then frees the chart. */
function drawChart(config: ChartConfiguration, width: number, height: number, target: SKRSContext2D, x: number, y: number): void {
  const canvas = createCanvas(width, height);
  Chart.defaults.font.family = CHART_FONT;
  Chart.defaults.font.size = 22;
  Chart.defaults.color = "#1f2937";
  const chart = new Chart(
    canvas as unknown as HTMLCanvasElement,
    {
      ...config,
      options: { ...config.options, responsive: false, animation: false, devicePixelRatio: 1 },
    } as ChartConfiguration,
  );
  target.drawImage(canvas, x, y);
  chart.destroy();
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * The timeline as bars, one per day (or hour), clicks and unique visitors side by side, the totals in
 * its title: a day's figure is read off its bar, where a smoothed line invented values between days.
 */
export function timelineConfig(card: SummaryCard): ChartConfiguration<"bar"> {
  const { labels, clicks, unique, unit = "day" } = card.timeline;
  const total = sum(clicks);
  return {
    type: "bar",
    data: {
      labels,
      datasets: [
        { label: t(card.lang, "summary-clicks"), data: clicks, backgroundColor: COLORS[0], borderRadius: 3 },
        { label: t(card.lang, "summary-unique"), data: unique, backgroundColor: COLORS[1], borderRadius: 3 },
      ],
    },
    options: {
      locale: card.lang,
      plugins: {
        title: {
          display: true,
          text: t(card.lang, unit === "hour" ? "chart-per-hour" : "chart-per-day", {
            total: numberIn(card.lang, total),
            unique: numberIn(card.lang, sum(unique)),
          }),
          font: { size: 28, weight: "bold" },
        },
        legend: { labels: { font: { size: 22 } } },
      },
      scales: { x: { ticks: { maxTicksLimit: 10, maxRotation: 0 } }, y: { beginAtZero: true, ticks: { precision: 0 } } },
    },
  };
}

function timelineChart(card: SummaryCard, height: number, target: SKRSContext2D, y: number): void {
  drawChart(timelineConfig(card) as ChartConfiguration, WIDTH - 2 * PAD, height, target, PAD, y);
}

function breakdownChart(lang: Language, b: Breakdown, width: number, height: number, target: SKRSContext2D, x: number, y: number): void {
  const items = b.items.length ? b.items : [{ name: t(lang, "chart-no-clicks"), count: 0 }];
  drawChart(
    {
      type: "bar",
      data: {
        labels: items.map((i) => i.name),
        datasets: [{ label: b.title, data: items.map((i) => i.count), backgroundColor: items.map((_, i) => COLORS[i % COLORS.length]!) }],
      },
      options: {
        locale: lang,
        indexAxis: "y",
        plugins: { title: { display: true, text: b.title, font: { size: 26, weight: "bold" } }, legend: { display: false } },
        scales: { x: { beginAtZero: true, ticks: { precision: 0, maxTicksLimit: 5 } }, y: { ticks: { font: { size: 22 } } } },
      },
    },
    width,
    height,
    target,
    x,
    y,
  );
}

function text(ctx: SKRSContext2D, s: string, x: number, y: number, size: number, color = "#111827", weight = "normal") {
  ctx.fillStyle = color;
  ctx.font = `${weight} ${size}px ${CHART_FONT}`;
  ctx.fillText(s, x, y);
}

/** Renders a summary card to an optimised PNG. */
export async function renderSummaryCard(card: SummaryCard): Promise<Uint8Array> {
  ensureChartFonts(GlobalFonts);
  const header = 300;
  const timelineH = 480;
  const panelW = (WIDTH - 3 * PAD) / 2;
  const panelH = 420;
  const rows = Math.ceil(card.breakdowns.length / 2);
  const height = header + timelineH + PAD + rows * (panelH + PAD);
  const canvas = createCanvas(WIDTH, height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, WIDTH, height);
  text(ctx, card.title.slice(0, 48), PAD, 70, 44, "#111827", "bold");
  text(ctx, card.subtitle.slice(0, 70), PAD, 115, 26, "#4b5563");
  const tileW = (WIDTH - 2 * PAD - (card.tiles.length - 1) * 20) / card.tiles.length;
  card.tiles.forEach(([label, value], i) => {
    const x = PAD + i * (tileW + 20);
    ctx.fillStyle = "#eff6ff";
    ctx.fillRect(x, 150, tileW, 120);
    text(ctx, value, x + 20, 215, 44, COLORS[0], "bold");
    text(ctx, label, x + 20, 255, 22, "#374151");
  });
  timelineChart(card, timelineH, ctx, header);
  card.breakdowns.forEach((b, i) => {
    const x = PAD + (i % 2) * (panelW + PAD);
    const y = header + timelineH + PAD + Math.floor(i / 2) * (panelH + PAD);
    breakdownChart(card.lang, b, panelW, panelH, ctx, x, y);
  });
  return new Uint8Array(await sharp(canvas.toBuffer("image/png")).png({ compressionLevel: 9, palette: true, quality: 90 }).toBuffer());
}
