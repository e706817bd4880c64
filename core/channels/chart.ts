/** The joins-and-leaves chart: Chart.js on @napi-rs/canvas, as the analytics cards are drawn. */
import { createCanvas, GlobalFonts } from "@napi-rs/canvas";
import { Chart, registerables } from "chart.js";
import { existsSync } from "node:fs";

Chart.register(...registerables);

export interface JoinSeries {
  title: string;
  /** one per day, MM-DD */
  labels: string[];
  /** joins per day, one series per invite (and "Unattributed") */
  joins: { name: string; data: number[] }[];
  leaves: number[];
}

const COLORS = ["#2563eb", "#16a34a", "#f59e0b", "#7c3aed", "#0891b2", "#db2777", "#65a30d", "#9ca3af"];
const FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif";

function ensureFonts() {
  if (GlobalFonts.families.length) return;
  for (const dir of ["/usr/share/fonts", "/usr/local/share/fonts"]) if (existsSync(dir)) GlobalFonts.loadFontsFromDir(dir);
}

/**
 * Joins per day stacked by invite above the axis, leaves per day below it, 1200 × 700 px PNG.
 */
export async function renderJoinChart(s: JoinSeries): Promise<Uint8Array> {
  ensureFonts();
  const canvas = createCanvas(1200, 700);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, 1200, 700);
  Chart.defaults.font.family = FONT;
  Chart.defaults.font.size = 18;
  const chart = new Chart(canvas as unknown as HTMLCanvasElement, {
    type: "bar",
    data: {
      labels: s.labels,
      datasets: [
        ...s.joins.map((j, i) => ({ label: `${j.name}: joins`, data: j.data, backgroundColor: j.name === "Unattributed" ? "#9ca3af" : COLORS[i % COLORS.length]!, stack: "people" })),
        { label: "Leaves", data: s.leaves.map((n) => -n), backgroundColor: "#dc2626", stack: "people" },
      ],
    },
    options: {
      responsive: false, animation: false, devicePixelRatio: 1,
      plugins: { title: { display: true, text: `${s.title}: joins and leaves per day`, font: { size: 26, weight: "bold" } }, legend: { position: "bottom" } },
      scales: { x: { stacked: true, ticks: { maxTicksLimit: 15, maxRotation: 0 } }, y: { stacked: true, ticks: { precision: 0 } } },
    },
  });
  const png = canvas.toBuffer("image/png");
  chart.destroy();
  return new Uint8Array(png);
}
