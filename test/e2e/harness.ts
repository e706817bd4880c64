/**
 * The whole service for an end-to-end test: a test app listening on 127.0.0.1 (real HTTP), the real
 * bot polling a fake Bot API server, a webhook receiver, and the delivery worker driven by `drain()`
 * with the app's ManualClock. `stop()` tears everything down (last started, first stopped).
 */
import { afterEach, beforeEach } from "bun:test";
import { createTestApp, parseJson, type TestApp } from "../helpers/app";
import { FakeBotApi, FAKE_BOT_TOKEN } from "../helpers/fake-bot-api";
import { WebhookReceiver } from "../helpers/webhook-receiver";
import { createBot } from "../../bot/bot";
import { deliveryWorker } from "../../app/delivery-routes";
export { eventually } from "../helpers/eventually";

export interface Harness {
  t: TestApp;
  fake: FakeBotApi;
  rx: WebhookReceiver;
  /** `http://127.0.0.1:<port>` of the listening app */
  base: string;
  /** a request over real HTTP; JSON in and out */
  api(
    method: string,
    path: string,
    init?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; json: any; headers: Headers }>;
  /** sends every outbox row due now (by the ManualClock), retries due now included */
  drain(): Promise<void>;
}

/** Builds a fresh harness before each test of the file and stops it after. Read its fields inside tests. */
export function useHarness(env: Record<string, string> | (() => Record<string, string>) = {}): Harness {
  const h = {} as Harness;
  let stopBot: () => Promise<void> = async () => {};
  afterEach(async () => {
    await stopBot();
    stopBot = async () => {};
    await h.t?.app.stop(true);
    h.rx?.stop();
    await h.fake?.stop();
    h.t?.close();
  });
  const start = async () => {
    h.fake = new FakeBotApi().start();
    h.rx = new WebhookReceiver().start();
    h.t = createTestApp({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: h.fake.url, ...(typeof env === "function" ? env() : env) } });
    h.t.app.listen({ hostname: "127.0.0.1", port: 0 });
    h.base = `http://127.0.0.1:${h.t.app.server!.port}`;
    const bot = createBot({ ...h.t.deps, config: { ...h.t.config, botToken: FAKE_BOT_TOKEN } });
    let startError: unknown;
    const running = bot.start().catch((e) => void (startError = e));
    stopBot = async () => {
      await bot.stop();
      await running;
      // stopping during start-up aborts grammY's retry delay; anything else is a real failure
      if (startError && !String(startError).includes("Aborted delay")) throw startError;
    };
    const worker = deliveryWorker(h.t.deps);
    h.drain = () => worker.drain();
    h.api = async (method, path, init = {}) => {
      const headers: Record<string, string> = { ...init.headers };
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      if (init.body !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(`${h.base}${path}`, {
        method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        redirect: "manual",
      });
      return { status: res.status, json: parseJson(await res.text()), headers: res.headers };
    };
  };
  beforeEach(start);
  return h;
}
