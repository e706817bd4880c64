/**
 * `bun run screenshots`: draws the pictures docs/ shows, in English and in Russian, with the same
 * code that draws them for users (the summary card and the joins chart the bot sends), from fixed
 * figures so that a run changes a picture only when its drawing changed.
 */
import { join } from "node:path";
import { renderSummaryCard, type SummaryCard } from "../core/analytics/charts";
import { renderJoinChart } from "../core/channels/chart";
import { deviceName, numberIn, t, type Language } from "../core/i18n/translate";

const DOCS = join(import.meta.dir, "..", "docs");
const days = Array.from({ length: 14 }, (_, i) => new Date(Date.UTC(2026, 10, 12 + i)).toISOString().slice(5, 10));
const clicks = [120, 140, 135, 610, 980, 720, 430, 300, 260, 240, 520, 880, 640, 410];
const unique = clicks.map((c) => Math.round(c * 0.72));

function summary(lang: Language): SummaryCard {
  const total = clicks.reduce((a, b) => a + b, 0);
  return {
    lang,
    title: lang === "ru" ? "Чёрная пятница" : "Black Friday",
    subtitle: `https://s.example/bf26 · ${t(lang, "period-30d")}`,
    tiles: [
      [t(lang, "summary-clicks"), numberIn(lang, total)],
      [
        t(lang, "summary-unique"),
        numberIn(
          lang,
          unique.reduce((a, b) => a + b, 0),
        ),
      ],
      [t(lang, "summary-bots"), numberIn(lang, 212)],
      [t(lang, "summary-per-day"), numberIn(lang, Math.round(total / 14))],
    ],
    timeline: { labels: days, clicks, unique, unit: "day" },
    breakdowns: [
      {
        title: t(lang, "summary-top-countries"),
        items: [
          { name: "RU", count: 3100 },
          { name: "KZ", count: 1210 },
          { name: "BY", count: 820 },
          { name: "UZ", count: 610 },
        ],
      },
      {
        title: t(lang, "summary-devices"),
        items: [
          { name: deviceName(lang, "mobile"), count: 5120 },
          { name: deviceName(lang, "desktop"), count: 1010 },
          { name: deviceName(lang, "tablet"), count: 155 },
        ],
      },
      {
        title: t(lang, "summary-browsers"),
        items: [
          { name: "Telegram", count: 3900 },
          { name: "Chrome", count: 1400 },
          { name: "Safari", count: 900 },
        ],
      },
      {
        title: t(lang, "summary-referrers"),
        items: [
          { name: "t.me", count: 4200 },
          { name: t(lang, "summary-direct"), count: 1700 },
          { name: "vk.com", count: 385 },
        ],
      },
    ],
  };
}

for (const lang of ["en", "ru"] as const) {
  await Bun.write(join(DOCS, `summary-card.${lang}.png`), await renderSummaryCard(summary(lang)));
  const joins = [
    // invites named with emoji, as marketers name them: drawn by the emoji font (core/fonts.ts)
    { name: lang === "ru" ? "🚀 Реклама у @bigchannel" : "🚀 Ad in @bigchannel", data: [0, 0, 3, 41, 66, 30, 12, 8, 5, 4, 2, 1, 0, 1] },
    { name: lang === "ru" ? "💬 Посев в чатах 🔥" : "💬 Chat seeding 🔥", data: [2, 4, 3, 5, 6, 4, 3, 12, 19, 14, 9, 6, 4, 3] },
    { name: t(lang, "chart-unattributed"), data: [3, 2, 4, 3, 5, 2, 4, 3, 2, 3, 4, 2, 3, 2] },
  ];
  const series = {
    lang,
    title: lang === "ru" ? "Клуб рекламы" : "Ads Club",
    labels: days,
    joins,
    leaves: [1, 0, 2, 4, 9, 7, 5, 3, 3, 2, 2, 1, 1, 1],
  };
  await Bun.write(join(DOCS, `channels-chart.${lang}.png`), await renderJoinChart(series));
}
console.log("docs/summary-card.{en,ru}.png and docs/channels-chart.{en,ru}.png drawn");
