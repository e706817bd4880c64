/** A real HTTP receiver on loopback that records requests and answers what the test says. */
import type { Server } from "bun";

export interface Received {
  method: string;
  path: string;
  query: Record<string, string>;
  /** the query string exactly as received, without "?" */
  rawQuery: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export class WebhookReceiver {
  server!: Server<undefined>;
  received: Received[] = [];
  /** status to answer; a function decides per request */
  respond: number | ((r: Received, index: number) => number | Promise<number>) = 200;

  get url() {
    return `http://127.0.0.1:${this.server.port}`;
  }

  start() {
    this.server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (req) => {
        const u = new URL(req.url);
        const r: Received = {
          method: req.method,
          path: u.pathname,
          query: Object.fromEntries(u.searchParams),
          rawQuery: u.search.slice(1),
          headers: Object.fromEntries(req.headers),
          body: await req.text(),
          at: Date.now(),
        };
        this.received.push(r);
        const status = typeof this.respond === "function" ? await this.respond(r, this.received.length - 1) : this.respond;
        return new Response(status < 300 ? "ok" : "error", { status });
      },
    });
    return this;
  }

  stop() {
    this.server.stop(true);
  }

  async waitForCount(n: number, timeoutMs = 5000) {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < n) {
      if (Date.now() > deadline) throw new Error(`webhook receiver: expected ${n} requests, got ${this.received.length}`);
      await Bun.sleep(10);
    }
    return this.received;
  }
}
