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
