/** The redirect path's tally (core/metrics.ts): merged into the same Prometheus series, once, at every scrape. */
import { expect, test } from "bun:test";
import { createMetrics } from "../../core/metrics";

const line = (text: string, series: string) =>
  text
    .split("\n")
    .find((l) => l.startsWith(`${series} `))
    ?.split(" ")[1];

test("redirects counted in plain numbers show in the request, redirect and latency series, added to what prom-client counted itself", async () => {
  const m = createMetrics();
  for (let i = 0; i < 3; i++) m.visitorAnswered(302, 0.0007);
  m.visitorAnswered(404, 0.002);
  // a visitor route Elysia answered (a password form), counted the ordinary way
  m.requests.inc({ class: "visitor", status: "302" });
  m.latency.observe({ class: "visitor" }, 0.3);
  for (const scrape of [1, 2]) {
    const text = await m.registry.metrics();
    expect({
      scrape,
      v: [
        line(text, 'linkbot_http_requests_total{class="visitor",status="302"}'),
        line(text, 'linkbot_http_requests_total{class="visitor",status="404"}'),
        line(text, "linkbot_redirects_total"),
        line(text, 'linkbot_http_request_duration_seconds_bucket{le="0.001",class="visitor"}'),
        line(text, 'linkbot_http_request_duration_seconds_bucket{le="0.0025",class="visitor"}'),
        line(text, 'linkbot_http_request_duration_seconds_bucket{le="0.5",class="visitor"}'),
        line(text, 'linkbot_http_request_duration_seconds_bucket{le="+Inf",class="visitor"}'),
        line(text, 'linkbot_http_request_duration_seconds_count{class="visitor"}'),
      ],
    }).toEqual({ scrape, v: ["4", "1", "3", "3", "4", "5", "5", "5"] });
  }
  expect(Number(line(await m.registry.metrics(), 'linkbot_http_request_duration_seconds_sum{class="visitor"}'))).toBeCloseTo(
    3 * 0.0007 + 0.002 + 0.3,
    9,
  );
});

test("the journal's memory: its limit, and seconds until it is reached at the rate the backlog grows (absent while it does not, or past it)", async () => {
  const { watchService } = await import("../../core/service-metrics");
  const { ManualClock } = await import("../../core/clock");
  const clock = new ManualClock(Date.parse("2026-03-01T09:00:00Z"));
  const state = { backlog: 0, memory: 0, spilling: false };
  const clicks = {
    backlog: () => ({ clicks: state.backlog, oldestAt: null }),
    memory: () => ({ clicks: state.memory, spilling: state.spilling, limit: 10_000 }),
  } as unknown as Parameters<typeof watchService>[0]["clicks"];
  const m = createMetrics({ processMetrics: false });
  const asyncDb = {} as Parameters<typeof watchService>[0]["asyncDb"]; // the outbox and database gauges fail, and are left out
  watchService({ clicks, asyncDb, clock, cluster: { leases: () => [] } as never }, m);
  const read = async () => {
    const text = await m.registry.metrics();
    return {
      limit: line(text, "linkbot_click_journal_memory_limit_clicks"),
      full: line(text, "linkbot_click_journal_memory_full_seconds"),
    };
  };
  expect(await read()).toEqual({ limit: "10000", full: undefined }); // one reading: no rate yet
  // 2,000 clicks in 2 s wait: 1,000 a second, 8,000 of room left
  Object.assign(state, { backlog: 2000, memory: 2000 });
  clock.advance(2000);
  expect(await read()).toEqual({ limit: "10000", full: "8" });
  // the writer caught up: nothing grows
  Object.assign(state, { backlog: 0, memory: 0 });
  clock.advance(2000);
  expect(await read()).toEqual({ limit: "10000", full: undefined });
  // past the limit: spilling, the figure is left out
  Object.assign(state, { backlog: 30_000, memory: 10_000, spilling: true });
  clock.advance(2000);
  expect(await read()).toEqual({ limit: "10000", full: undefined });
});
