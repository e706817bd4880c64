import { Api, GrammyError, HttpError } from "grammy";
import type { Deps } from "../deps";
import type { OutboxRow } from "./outbox";
import { DELIVERY_TOPICS } from "./topics";
import { sendWebhook } from "../webhooks/send";
import { TargetError } from "../webhooks/ssrf";

/** What one attempt came to. */
export type Outcome =
  | { type: "done"; note?: string }
  | { type: "cancelled"; note: string }
  /** failed; retried per config.webhookRetryDelays unless `permanent` */
  | { type: "error"; error: string; permanent?: boolean }
  /** not an attempt: try again at `at` (Bot API 429 retry_after) */
  | { type: "later"; at: Date; error: string };

const BOT_TIMEOUT_MS = 30_000;

/** Makes one attempt at an outbox row. Never throws. */
export async function attemptRow(deps: Deps, row: OutboxRow): Promise<Outcome> {
  try {
    if (DELIVERY_TOPICS[row.topic]?.stillWanted?.(deps, row) === false) return { type: "cancelled", note: "no longer wanted (webhook disabled or link deleted)" };
    return row.kind === "bot" ? await attemptBot(deps, row) : await attemptWebhook(deps, row);
  } catch (e) {
    deps.log.error(`delivery ${row.deliveryId} (${row.topic}) crashed`, e);
    return { type: "error", error: `internal error: ${(e as Error).message}` };
  }
}

async function attemptWebhook(deps: Deps, row: OutboxRow): Promise<Outcome> {
  try {
    const res = await sendWebhook(deps, {
      deliveryId: row.deliveryId,
      userId: row.userId,
      url: row.target,
      method: row.method === "GET" ? "GET" : "POST",
      data: row.payload,
    });
    if (res.status >= 200 && res.status < 300) return { type: "done", note: `HTTP ${res.status}` };
    const hint = res.status >= 300 && res.status < 400 ? " (redirects are not followed)" : "";
    return { type: "error", error: `HTTP ${res.status}${hint}: ${res.body.slice(0, 200)}` };
  } catch (e) {
    if (e instanceof TargetError) return { type: "error", error: `${e.kind}: ${e.message}`, permanent: e.kind === "invalid" };
    throw e;
  }
}

/**
 * The worker schedules its own 429 retries on the injected clock (without using up an attempt), so
 * it calls the Bot API through a plain client, not deps.telegram with its auto-retry transformer.
 */
const plainApis = new WeakMap<Deps["config"], Api>();
function plainApi(deps: Deps): Api | null {
  if (!deps.telegram || !deps.config.botToken) return null;
  let api = plainApis.get(deps.config);
  if (!api) plainApis.set(deps.config, (api = new Api(deps.config.botToken, { apiRoot: deps.config.botApiRoot })));
  return api;
}

async function attemptBot(deps: Deps, row: OutboxRow): Promise<Outcome> {
  const api = plainApi(deps);
  if (!api) return { type: "later", at: new Date(deps.clock.now().getTime() + 60_000), error: "BOT_TOKEN is not set" };
  const call = (api.raw as unknown as Record<string, (p: unknown, s?: AbortSignal) => Promise<unknown>>)[row.method];
  if (typeof call !== "function") return { type: "error", error: `unknown Bot API method ${row.method}`, permanent: true };
  try {
    // chat ids are stored as text; numeric ones go out as numbers, as callers passed them
    const chatId = /^-?\d+$/.test(row.target) ? Number(row.target) : row.target;
    await call({ chat_id: chatId, ...row.payload }, AbortSignal.timeout(BOT_TIMEOUT_MS));
    return { type: "done" };
  } catch (e) {
    if (e instanceof GrammyError) {
      const error = `Bot API ${e.error_code}: ${e.description}`;
      if (e.error_code === 429) {
        const wait = Number(e.parameters.retry_after ?? 5);
        return { type: "later", at: new Date(deps.clock.now().getTime() + wait * 1000), error };
      }
      // 400 (bad request, chat not found) and 403 (blocked, kicked) do not get better by retrying
      return { type: "error", error, permanent: e.error_code === 400 || e.error_code === 403 };
    }
    if (e instanceof HttpError) return { type: "error", error: `Bot API unreachable: ${(e.error as Error)?.message ?? e.message}` };
    throw e;
  }
}
