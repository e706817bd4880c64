/**
 * The node's metrics in Prometheus text format (GET /metrics), through prom-client. A registry per
 * service (not prom-client's global one), so tests that build several apps in one process keep
 * their figures apart. Counters are bumped where the thing happens; gauges are read when scraped.
 */
import type { Transformer } from "grammy";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** What a request is, for its metrics: a handful of values, never the path itself (that would be unbounded). */
export type RouteClass = "visitor" | "api" | "probe" | "metrics" | "bot_webhook" | "page";

/** The delivery outcomes counted: a send that worked, was cancelled, is tried again later, or failed for good. */
export type DeliveryOutcome = "done" | "cancelled" | "later" | "retry" | "failed";

export interface Metrics {
  readonly registry: Registry;
  /** HTTP requests answered, by route class and status code */
  readonly requests: Counter<"class" | "status">;
  /** seconds from a request's arrival to its answer, by route class */
  readonly latency: Histogram<"class">;
  /** short-link visits answered with a redirect */
  readonly redirects: Counter;
  /**
   * The redirect path's answers (route class "visitor"), counted in plain numbers and merged into
   * `requests`, `redirects` and `latency` when scraped: the same series, at a fraction of
   * prom-client's cost per call on a path that answers tens of thousands a second.
   */
  visitorAnswered(status: number, seconds: number): void;
  /** clicks committed to the database by the click writer */
  readonly clicksWritten: Counter;
  /** clicks the writer gave up on (a click that cannot be written; the database closed under it) */
  readonly clicksDropped: Counter;
  /** outbox deliveries attempted, by kind (webhook or bot) and outcome */
  readonly deliveries: Counter<"kind" | "outcome">;
  /** Bot API calls made by this node, by method */
  readonly botApiCalls: Counter<"method">;
  /** Bot API calls answered 429 (Too Many Requests) */
  readonly botApi429: Counter<"method">;
  /**
   * Registers a gauge read at each scrape; `read` may be async (a database query). A read that fails
   * leaves the gauge out of that scrape rather than failing it.
   */
  gauge(name: string, help: string, read: () => number | null | Promise<number | null>): void;
  /** The same for a gauge with labels: `read` gives each label set's value. */
  labelledGauge<L extends string>(
    name: string,
    help: string,
    labels: readonly L[],
    read: () => Promise<Array<[Record<L, string>, number]>> | Array<[Record<L, string>, number]>,
  ): void;
}

/** Prefix of every metric of the service. */
const P = "linkbot_";

/** Latency buckets in seconds: a redirect answers in well under a millisecond, an export in seconds. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * A fresh registry with the service's metrics; with `processMetrics` (the running service, not the
 * tests' many apps) also the process's own: memory, CPU, event-loop lag.
 */
export function createMetrics(opts: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (opts.processMetrics) collectDefaultMetrics({ register: registry, prefix: P });
  const on = { registers: [registry] };
  const tally = new VisitorTally();
  const requests = new Counter({
    name: `${P}http_requests_total`,
    help: "HTTP requests answered, by route class and status",
    labelNames: ["class", "status"],
    ...on,
    collect() {
      tally.flushStatuses((status, n) => this.inc({ class: "visitor", status: String(status) }, n));
    },
  });
  const redirects = new Counter({
    name: `${P}redirects_total`,
    help: "Short-link visits answered with a redirect",
    ...on,
    collect() {
      tally.flushRedirects((n) => this.inc(n));
    },
  });
  const latency = new Histogram({
    name: `${P}http_request_duration_seconds`,
    help: "Time to answer an HTTP request, by route class",
    labelNames: ["class"],
    buckets: LATENCY_BUCKETS,
    ...on,
  });
  tally.joinHistogram(latency, `${P}http_request_duration_seconds`);
  return {
    registry,
    requests,
    latency,
    redirects,
    visitorAnswered: (status, seconds) => tally.answered(status, seconds),
    clicksWritten: new Counter({ name: `${P}clicks_written_total`, help: "Clicks committed to the database", ...on }),
    clicksDropped: new Counter({ name: `${P}clicks_dropped_total`, help: "Clicks the writer gave up on (logged in full)", ...on }),
    deliveries: new Counter({
      name: `${P}outbox_deliveries_total`,
      help: "Outbox delivery attempts, by kind and outcome",
      labelNames: ["kind", "outcome"],
      ...on,
    }),
    botApiCalls: new Counter({ name: `${P}bot_api_calls_total`, help: "Telegram Bot API calls, by method", labelNames: ["method"], ...on }),
    botApi429: new Counter({
      name: `${P}bot_api_429_total`,
      help: "Telegram Bot API calls answered 429 Too Many Requests, by method",
      labelNames: ["method"],
      ...on,
    }),
    gauge(name, help, read) {
      new Gauge({
        name: `${P}${name}`,
        help,
        ...on,
        async collect() {
          this.reset();
          let v: number | null = null;
          try {
            v = await read();
          } catch {
            // a database that does not answer: the gauge is left out of this scrape
          }
          // left out, not 0: reset gives a gauge without labels a 0 (which would read as "full now")
          if (v === null) this.remove({});
          else this.set(v);
        },
      });
    },
    labelledGauge(name, help, labels, read) {
      new Gauge({
        name: `${P}${name}`,
        help,
        labelNames: labels as unknown as string[],
        ...on,
        async collect() {
          this.reset();
          try {
            for (const [l, v] of await read()) this.set(l as Record<string, string>, v);
          } catch {
            // as above
          }
        },
      });
    },
  };
}

/**
 * The redirect path's tally: plain numbers a redirect adds to (counts by status, redirects, latency
 * buckets kept whole), flushed into the prom-client counters when they are scraped and joined into the
 * latency histogram's visitor series when it is read, so a redirect pays no label lookup.
 */
class VisitorTally {
  private readonly pending = new Map<number, number>();
  /** 302s apart from `pending`: nearly every answer of the redirect path is one */
  private pendingFound = 0;
  private pendingRedirects = 0;
  private readonly buckets = new Float64Array(LATENCY_BUCKETS.length);
  private sum = 0;
  private observed = 0;

  answered(status: number, seconds: number): void {
    if (status === 302) {
      this.pendingFound++;
      this.pendingRedirects++;
    } else {
      this.pending.set(status, (this.pending.get(status) ?? 0) + 1);
      if (status >= 301 && status <= 308) this.pendingRedirects++;
    }
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
    if (i < LATENCY_BUCKETS.length) this.buckets[i]!++;
    this.sum += seconds;
    this.observed++;
  }

  /** Hands the answers counted by status since the last scrape to `add`, and starts again. */
  flushStatuses(add: (status: number, n: number) => void): void {
    if (this.pendingFound) add(302, this.pendingFound);
    this.pendingFound = 0;
    for (const [status, n] of this.pending) add(status, n);
    this.pending.clear();
  }

  /** Hands the redirects counted since the last scrape to `add`, and starts again. */
  flushRedirects(add: (n: number) => void): void {
    if (this.pendingRedirects) add(this.pendingRedirects);
    this.pendingRedirects = 0;
  }

  /**
   * Makes `histogram` (named `name`) read with this tally's buckets in its visitor series. The registry
   * reads a histogram through getForPromString (get() goes through it too), whose values keep the label
   * set apart as `sharedLabels` (prom-client 15); the tally joins the visitor series there, or makes it.
   * test/core/metrics.test.ts reads the scraped text, so a change of that shape fails it.
   */
  joinHistogram(histogram: Histogram, name: string): void {
    type Sample = { labels: Record<string, string | number>; sharedLabels: Record<string, string>; value: number; metricName: string };
    const readable = histogram as unknown as { getForPromString(): Promise<{ values: Sample[] }> };
    const histogramRead = readable.getForPromString.bind(histogram);
    readable.getForPromString = async () => {
      const out = await histogramRead();
      if (!this.observed) return out;
      const add = (metricName: string, le: number | string | undefined, value: number) => {
        const hit = out.values.find((v) => v.metricName === metricName && v.sharedLabels?.class === "visitor" && v.labels.le === le);
        if (hit) hit.value += value;
        else out.values.push({ metricName, value, labels: le === undefined ? {} : { le }, sharedLabels: { class: "visitor" } });
      };
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, i) => add(`${name}_bucket`, le, (cumulative += this.buckets[i]!)));
      add(`${name}_bucket`, "+Inf", this.observed);
      add(`${name}_sum`, undefined, this.sum);
      add(`${name}_count`, undefined, this.observed);
      return out;
    };
  }
}

/** The class of a request by its path (see RouteClass). */
export function routeClassOf(path: string, botWebhookPath?: string): RouteClass {
  if (path.startsWith("/api/") || path === "/api") return "api";
  if (path === "/livez" || path === "/readyz" || path === "/healthz") return "probe";
  if (path === "/metrics") return "metrics";
  if (botWebhookPath && path === botWebhookPath) return "bot_webhook";
  // a short link (its redirect, countdown or password page) is one path segment without a dot
  if (/^\/[^/.]+$/.test(path)) return "visitor";
  return "page";
}

/**
 * A grammY API transformer that counts each Bot API call and each 429 answer. Installed before
 * auto-retry, so every attempt is counted, retries included.
 */
export function countBotApiCalls(metrics: Pick<Metrics, "botApiCalls" | "botApi429">): Transformer {
  return async (prev, method, payload, signal) => {
    metrics.botApiCalls.inc({ method });
    const res = await prev(method, payload, signal);
    if (!res.ok && res.error_code === 429) metrics.botApi429.inc({ method });
    return res;
  };
}
