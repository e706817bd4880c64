/** Chart components over a lazily loaded Chart.js, coloured from the current theme. */
import type { Chart, ChartConfiguration, Scale, TooltipItem } from "chart.js";
import { useEffect, useRef } from "preact/hooks";
import { html } from "./ui";
import { language, t } from "./i18n";

const PALETTE = ["#2f80ed", "#27ae60", "#f2994a", "#eb5757", "#9b51e0", "#56ccf2", "#f2c94c", "#6fcf97", "#bb6bd9", "#828282"];

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** One Chart.js canvas; redrawn when the config's data changes. */
/** What the config functions below build: Chart.js's configuration, plus the fallback table's row labels. */
interface ChartSpec {
  type: string;
  data: { labels: (string | number)[]; shown?: string[]; datasets: { label?: string; data: number[] }[] };
  options?: Record<string, unknown>;
}

export function ChartView({ config, label, height = 220 }: { config: ChartSpec; label: string; height?: number }) {
  const key = JSON.stringify(config);
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let chart: Chart | undefined;
    let live = true;
    import("./chart-lib").then(({ Chart }) => {
      if (!live || !canvas.current) return;
      const text = cssVar("--text", "#222");
      const grid = cssVar("--border", "#ddd");
      Chart.defaults.color = text;
      Chart.defaults.borderColor = grid;
      // the specs are built below for the chart types they name; Chart.js checks them when drawing
      chart = new Chart(canvas.current, {
        ...config,
        options: { responsive: true, maintainAspectRatio: false, animation: false, locale: language(), ...config.options },
      } as ChartConfiguration);
      canvas.current.dataset.ready = "1";
    });
    return () => {
      live = false;
      chart?.destroy();
    };
  }, [key]);
  return html`<div class="chart" style=${`height:${height}px`}><canvas ref=${canvas} role="img" aria-label=${label}>${dataTable(config.data, label)}</canvas></div>`;
}

/** The chart's numbers as a table: the canvas's fallback content, which screen readers read instead of the drawing. */
function dataTable(data: ChartSpec["data"], label: string) {
  return html`<table aria-label=${label}><thead><tr><th></th>${data.datasets.map((d) => html`<th>${d.label ?? t("app-clicks-label")}</th>`)}</tr></thead>
    <tbody>${(data.shown ?? data.labels).map((l, i) => html`<tr><th>${l}</th>${data.datasets.map((d) => html`<td>${d.data[i]}</td>`)}</tr>`)}</tbody></table>`;
}

/** "2026-03-30T14:00" → "30 Mar 14:00" ("30 мар. 14:00" in Russian); "2026-03-30" → "30 Mar". */
function shortLabel(label: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}:\d{2}))?/.exec(label);
  if (!m) return label;
  const month = new Intl.DateTimeFormat(language(), { month: "short", timeZone: "UTC" }).format(Date.UTC(2026, Number(m[2]) - 1, 1));
  return `${Number(m[3])} ${month}${m[4] ? ` ${m[4]}` : ""}`;
}

export function lineConfig(labels: string[], series: { label: string; data: number[] }[]) {
  return {
    type: "line",
    data: {
      labels,
      datasets: series.map((s, i) => ({
        ...s,
        borderColor: PALETTE[i],
        backgroundColor: PALETTE[i] + "33",
        fill: i === 0,
        tension: 0.3,
        pointRadius: 2,
      })),
    },
    options: {
      scales: {
        x: {
          ticks: {
            maxRotation: 0,
            autoSkip: true,
            maxTicksLimit: 5,
            callback(this: Scale, v: number) {
              return shortLabel(this.getLabelForValue(v));
            },
          },
        },
        y: { beginAtZero: true, ticks: { precision: 0 } },
      },
      plugins: { legend: { position: "bottom" } },
    },
  };
}

/**
 * A line over time: each point placed by its instant (readings hourly, then daily, spaced as they
 * were taken), the axis, the tooltips and the fallback table labelled by `label` (local date and time).
 */
export function timeLineConfig(at: number[], series: { label: string; data: number[] }[], label: (ms: number) => string) {
  const c = lineConfig(at.map(label), series);
  const x = {
    type: "linear",
    min: at[0],
    max: at.at(-1),
    ticks: { maxRotation: 0, autoSkip: true, maxTicksLimit: 4, callback: (v: number) => label(v) },
  };
  const tooltip = { callbacks: { title: (items: TooltipItem<"line">[]) => (items[0] ? label(items[0].parsed.x ?? 0) : "") } };
  return {
    ...c,
    data: { labels: at, datasets: c.data.datasets, shown: c.data.labels },
    options: { ...c.options, scales: { ...c.options.scales, x }, plugins: { ...c.options.plugins, tooltip } },
  };
}

export function barConfig(labels: string[], data: number[], horizontal = true) {
  return {
    type: "bar",
    data: { labels, datasets: [{ label: t("app-clicks-label"), data, backgroundColor: PALETTE[0] }] },
    options: {
      indexAxis: horizontal ? "y" : "x",
      scales: { x: { beginAtZero: true, ticks: { precision: 0 } } },
      plugins: { legend: { display: false } },
    },
  };
}

export function doughnutConfig(labels: string[], data: number[]) {
  return {
    type: "doughnut",
    data: { labels, datasets: [{ data, backgroundColor: labels.map((_, i) => PALETTE[i % PALETTE.length]) }] },
    options: { plugins: { legend: { position: "right", labels: { boxWidth: 12 } } } },
  };
}

/** Short weekday names in the user's language, Sunday first (4 January 2026 was a Sunday). */
const weekdays = () =>
  Array.from({ length: 7 }, (_, d) =>
    new Intl.DateTimeFormat(language(), { weekday: "short", timeZone: "UTC" }).format(Date.UTC(2026, 0, 4 + d)),
  );

/** Day × hour grid (day 0 = Sunday) drawn as a table; darker = more clicks. */
export function Heatmap({ cells }: { cells: { day: number; hour: number; count: number }[] }) {
  const grid = Array.from({ length: 7 }, () => Array<number>(24).fill(0));
  for (const c of cells) if (grid[c.day]) grid[c.day]![c.hour] = c.count;
  const max = Math.max(1, ...cells.map((c) => c.count));
  const DAYS = weekdays();
  return html`<div class="heatmap" role="table" aria-label=${t("app-heatmap-label")}>
    <div class="hm-row hm-head" role="row"><span></span>${Array.from({ length: 24 }, (_, h) => html`<span class="hm-h">${h % 6 === 0 ? h : ""}</span>`)}</div>
    ${grid.map(
      (row, d) => html`<div class="hm-row" role="row"><span class="hm-day">${DAYS[d]}</span>
      ${row.map(
        (n, h) => html`<span class="hm-cell" title=${t("app-heatmap-cell", { day: DAYS[d]!, hour: `${h}:00`, clicks: n })}
        style=${`opacity:${n ? 0.15 + (0.85 * n) / max : 0.06}`}></span>`,
      )}</div>`,
    )}
  </div>`;
}

/** Bars side by side per label, one colour per series (e.g. clicks and unique clicks of each A/B variant). */
export function groupedBarConfig(labels: string[], series: { label: string; data: number[] }[]) {
  return {
    type: "bar",
    data: { labels, datasets: series.map((s, i) => ({ ...s, backgroundColor: PALETTE[i % PALETTE.length] })) },
    options: { scales: { y: { beginAtZero: true, ticks: { precision: 0 } } }, plugins: { legend: { position: "bottom" } } },
  };
}
