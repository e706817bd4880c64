/** The joins-and-leaves chart: Chart.js on @napi-rs/canvas, as the analytics cards are drawn. */
import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import { CHART_FONT, ensureChartFonts } from "../fonts";
import { Chart, registerables } from "chart.js";
import { t, type Language } from "../i18n/translate";

Chart.register(...registerables);

export interface JoinSeries {
  /** the language of the chart's own words */
  lang: Language;
  title: string;
  /** one per day, MM-DD */
  labels: string[];
  /** joins per day, one series per invite (and one of joins through none of them, named by "chart-unattributed") */
  joins: { name: string; data: number[] }[];
  leaves: number[];
}

const COLORS = ["#2563eb", "#16a34a", "#f59e0b", "#7c3aed", "#0891b2", "#db2777", "#65a30d", "#9ca3af"];

/**
 * Joins per day stacked by invite above the axis, leaves per day below it, 1200 × 700 px PNG.
 */
export async function renderJoinChart(s: JoinSeries): Promise<Uint8Array> {
  ensureChartFonts(GlobalFonts);
  const canvas = createCanvas(1200, 700);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, 1200, 700);
  Chart.defaults.font.family = CHART_FONT;
  Chart.defaults.font.size = 18;
  const chart = new Chart(canvas as unknown as HTMLCanvasElement, {
    type: "bar",
    data: {
      labels: s.labels,
      datasets: [
        ...s.joins.map((j, i) => ({
          label: t(s.lang, "chart-joins-of", { name: j.name }),
          data: j.data,
          backgroundColor: j.name === t(s.lang, "chart-unattributed") ? "#9ca3af" : COLORS[i % COLORS.length]!,
          stack: "people",
        })),
        { label: t(s.lang, "chart-leaves"), data: s.leaves.map((n) => -n), backgroundColor: "#dc2626", stack: "people" },
      ],
    },
    options: {
      responsive: false,
      animation: false,
      devicePixelRatio: 1,
      locale: s.lang,
      plugins: {
        title: { display: true, text: t(s.lang, "chart-joins-title", { title: s.title }), font: { size: 26, weight: "bold" } },
        legend: { position: "bottom" },
      },
      scales: { x: { stacked: true, ticks: { maxTicksLimit: 15, maxRotation: 0 } }, y: { stacked: true, ticks: { precision: 0 } } },
    },
  });
  const png = canvas.toBuffer("image/png");
  chart.destroy();
  return new Uint8Array(png);
}
