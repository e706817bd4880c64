/** Analytics of one link: stats, timeline, countries, devices, bots, heatmap, recent clicks. */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { ChartView, Heatmap, barConfig, doughnutConfig, lineConfig } from "../charts";
import { Async, Empty, html, useAsync, fmtDate, inputValue, type Loaded } from "../ui";
import { RoutingComparison } from "./link-routing-stats";
import { Conversions } from "./conversions";
import { countryName, fmtNumber, t, timeZone } from "../i18n";
import type { Devices } from "../../../api/analytics/model";

export const PERIODS = ["1d", "7d", "30d", "90d", "1y", "all"];
const browserTz = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
/** The zones offered: the account's (Settings) first, then the browser's, then a few others. */
const zones = () => [
  ...new Set([
    timeZone(),
    browserTz,
    "UTC",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Moscow",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "Australia/Sydney",
  ]),
];

type Named = Devices["devices"][number];

/** A country, device, browser or OS name; the API's "Unknown" (not located, not recognised) in the user's language. */
const named = (name: string | null | undefined) => (!name || name.toLowerCase() === "unknown" ? t("app-unknown") : name);
/** The kinds of device the service tells apart, named in the user's language (`app-device-<kind>`). */
const DEVICE_KINDS = ["mobile", "tablet", "desktop", "bot", "other"];
const deviceName = (kind: string | null | undefined) => (kind && DEVICE_KINDS.includes(kind) ? t(`app-device-${kind}`) : named(kind));

export function Analytics({ id, period, setPeriod }: { id: string; period: string; setPeriod: (p: string) => void }) {
  const [gran, setGran] = useState(period === "1d" ? "hourly" : "daily");
  // the account's zone (Settings) first, as every time in the app; the browser's and others to compare
  const [tz, setTz] = useState(timeZone());
  const links = client.api.links({ id });
  const stats = useAsync(() => call(links.stats.get({ query: { period } })), [id, period]);
  const timeline = useAsync(() => call(links.timeline.get({ query: { period, granularity: gran, tz } })), [id, period, gran, tz]);
  const geo = useAsync(() => call(links.geo.get({ query: { period } })), [id, period]);
  const devices = useAsync(() => call(links.devices.get({ query: { period } })), [id, period]);
  const bots = useAsync(() => call(links.bots.get({ query: { period } })), [id, period]);
  const heat = useAsync(() => call(links.heatmap.get({ query: { period, tz } })), [id, period, tz]);

  return html`<div class="analytics">
    <div class="controls card">
      <label>${t("app-period")} <select name="period" value=${period} onChange=${(e: Event) => setPeriod(inputValue(e))}>
        ${PERIODS.map((p) => html`<option value=${p}>${t(`app-period-${p}`)}</option>`)}</select></label>
      <label>${t("app-granularity")} <select name="granularity" value=${gran} onChange=${(e: Event) => setGran(inputValue(e))}>
        <option value="hourly">${t("app-hourly")}</option><option value="daily">${t("app-daily")}</option></select></label>
      <label>${t("app-time-zone")} <select name="tz" value=${tz} onChange=${(e: Event) => setTz(inputValue(e))}>
        ${zones().map((z) => html`<option value=${z}>${z}</option>`)}</select></label>
    </div>
    <${Async} state=${stats}>${(s: Loaded<typeof stats>) => html`<div class="stat-cards">
      <div class="stat"><strong data-stat="total">${fmtNumber(s.totalClicks)}</strong><span>${t("app-clicks-label")}</span></div>
      <div class="stat"><strong data-stat="unique">${fmtNumber(s.uniqueClicks)}</strong><span>${t("app-unique")}</span></div>
      <div class="stat"><strong data-stat="bots">${fmtNumber(s.botClicks)}</strong><span>${t("app-bots")}</span></div>
      <div class="stat"><strong>${fmtNumber(s.avgClicksPerDay ?? 0, { maximumFractionDigits: 1 })}</strong><span>${t("app-per-day")}</span></div>
      <div class="stat"><strong>${s.topCountry ? countryName(s.topCountry) : "—"}</strong><span>${t("app-top-country")}</span></div>
    </div><${RoutingComparison} variants=${s.variants} rules=${s.rules} />
    <${Conversions} figures=${s.conversions} unique=${s.uniqueClicks} postbacks=${`/postbacks?link_id=${id}`} />`}<//>
    <div class="card"><h2>${t("app-timeline")}</h2><${Async} state=${timeline}>${(rows: Loaded<typeof timeline>) =>
      rows.some((p) => p.clicks > 0)
        ? html`<${ChartView} label=${t("app-timeline-label")} config=${lineConfig(
            rows.map((p) => p.date),
            [
              { label: t("app-clicks-label"), data: rows.map((p) => p.clicks) },
              { label: t("app-unique"), data: rows.map((p) => p.unique) },
            ],
          )} />`
        : html`<${Empty}>${t("app-no-clicks-period")}<//>`}<//></div>
    <div class="grid2">
      <div class="card"><h2>${t("app-countries")}</h2><${Async} state=${geo}>${(g: Loaded<typeof geo>) =>
        g.length
          ? html`<${ChartView} label=${t("app-countries-label")} height=${Math.max(120, g.slice(0, 10).length * 28)}
          config=${barConfig(
            g.slice(0, 10).map((c) => countryName(named(c.country))),
            g.slice(0, 10).map((c) => c.count),
          )} />`
          : html`<${Empty}>${t("app-no-countries")}<//>`}<//></div>
      <div class="card"><h2>${t("app-bots")}</h2><${Async} state=${bots}>${(b: Loaded<typeof bots>) => html`
        <p>${t("app-bot-clicks", { count: b.totalBots, percent: fmtNumber(b.botPercentage / 100, { style: "percent", maximumFractionDigits: 1 }) })}</p>
        ${
          b.bots.length
            ? html`<ul class="list compact">${b.bots.map((x) => html`<li class="row-line"><span>${x.name}</span><strong>${fmtNumber(x.count)}</strong></li>`)}</ul>`
            : html`<p class="hint">${t("app-no-bots")}</p>`
        }`}<//></div>
    </div>
    <div class="card"><h2>${t("app-devices-title")}</h2><${Async} state=${devices}>${(d: Loaded<typeof devices>) =>
      d.devices.length + d.browsers.length + d.os.length === 0
        ? html`<${Empty}>${t("app-no-devices")}<//>`
        : html`<div class="grid3">${(["devices", "browsers", "os"] as const).map(
            (k) => html`<div><h3>${t(`app-devices-${k}`)}</h3>
          <${ChartView} label=${t(`app-devices-${k}-label`)} height=${180} config=${doughnutConfig(
            d[k].map((x: Named) => (k === "devices" ? deviceName(x.name) : named(x.name))),
            d[k].map((x: Named) => x.count),
          )} /></div>`,
          )}</div>`}<//></div>
    <div class="card"><h2>${t("app-day-hour")}</h2><${Async} state=${heat}>${(h: Loaded<typeof heat>) => html`<${Heatmap} cells=${h} />`}<//></div>
    <${RecentClicks} id=${id} />
  </div>`;
}

function RecentClicks({ id }: { id: string }) {
  const [page, setPage] = useState(1);
  const clicks = useAsync(() => call(client.api.links({ id }).clicks.get({ query: { page, limit: 20 } })), [id, page]);
  return html`<div class="card"><h2>${t("app-recent-clicks")}</h2><${Async} state=${clicks}>${(c: Loaded<typeof clicks>) =>
    !c.data.length
      ? html`<${Empty}>${t("app-no-clicks")}<//>`
      : html`<div class="table-wrap"><table class="clicks">
      <thead><tr><th>${t("app-click-when")}</th><th>${t("app-click-country")}</th><th>${t("app-click-device")}</th><th>${t("app-click-browser")}</th><th>${t("app-click-referer")}</th></tr></thead>
      <tbody>${c.data.map(
        (k) => html`<tr class=${k.is_bot ? "bot" : ""}><td>${fmtDate(k.clicked_at)}</td>
        <td>${[k.country && countryName(k.country), k.city].filter(Boolean).join(", ") || "—"}</td><td>${k.device ? deviceName(k.device) : "—"} · ${k.os ?? ""}</td>
        <td>${k.browser ?? "—"}${k.is_bot ? html` <span class="badge">${t("app-bot-badge")}</span>` : ""}</td><td class="ellipsis">${k.referer || "—"}</td></tr>`,
      )}</tbody></table></div>
      <div class="pager"><button class="btn small" disabled=${page <= 1} onClick=${() => setPage(page - 1)}>${t("app-newer")}</button>
        <span>${t("app-range-of", { from: (page - 1) * 20 + 1, to: Math.min(page * 20, c.total), total: c.total })}</span>
        <button class="btn small" disabled=${page * 20 >= c.total} onClick=${() => setPage(page + 1)}>${t("app-older")}</button></div>`}<//></div>`;
}
