import { Api, GrammyError, HttpError, InputFile } from "grammy";
import { countBotApiCalls } from "../metrics";
import type { Deps } from "../deps";
import { AppError } from "../errors";
import { BOT_TIMEOUT_MS, type OutboxRow } from "./outbox";
import type { DeliveryRoutes } from "./topics";
import { hasStartLinks, resolveStartLinks } from "../deep-link";
import { htmlByDefault } from "./parse-mode";

/** What one attempt came to. */
export type Outcome =
  | { type: "done"; note?: string }
  | { type: "cancelled"; note: string }
  /** failed; retried per config.webhookRetryDelays unless `permanent` */
  | { type: "error"; error: string; permanent?: boolean }
  /** not an attempt: try again at `at` (Bot API 429 retry_after) */
  | { type: "later"; at: Date; error: string };

/**
 * Whether the row's claim still has room for a send that takes as long as it may: the steps before
 * the send (the wanted check, getMe, reading a stored file) have no deadline of their own, and a
 * send begun too late could outlive the claim while another node, finding it lapsed, sends the row
 * again. When there is no room, the attempt is put off (no attempt used) for a fresh claim.
 */
function roomToSend(deps: Pick<Deps, "clock" | "config">, row: OutboxRow): Outcome | null {
  const now = deps.clock.now().getTime();
  const longest = row.kind === "bot" ? BOT_TIMEOUT_MS : deps.config.webhookTimeoutMs;
  if (row.nextAttemptAt && now + longest < row.nextAttemptAt.getTime()) return null;
  return { type: "later", at: new Date(now), error: "the claim ran short before the send; sent on a fresh claim" };
}

/** Makes one attempt at an outbox row. Never throws. */
export async function attemptRow(deps: Deps, routes: DeliveryRoutes, bot: PlainApi | null, row: OutboxRow): Promise<Outcome> {
  try {
    if ((await routes.topics[row.topic]?.stillWanted?.(deps, row)) === false)
      return { type: "cancelled", note: "no longer wanted (webhook disabled or link deleted)" };
    if (row.kind !== "bot") return roomToSend(deps, row) ?? (await routes.webhook(deps, row));
    return await attemptBot(deps, routes, bot, row);
  } catch (e) {
    // a domain error says what stopped the attempt (e.g. Telegram could not confirm a right): retried
    if (e instanceof AppError) return { type: "error", error: e.message };
    deps.log.error(`delivery ${row.deliveryId} (${row.topic}) crashed`, e);
    return { type: "error", error: `internal error: ${(e as Error).message}` };
  }
}

/**
 * The Bot API client the worker sends with (null when BOT_TOKEN is unset). The worker schedules its
 * own 429 retries on the injected clock (without using up an attempt), so it calls the Bot API
 * through a plain client, not deps.telegram with its auto-retry transformer; one per worker.
 */
export type PlainApi = { api: Api; username?: Promise<string> };
export function plainBotApi(deps: Pick<Deps, "telegram" | "config"> & Partial<Pick<Deps, "metrics">>): PlainApi | null {
  if (!deps.telegram || !deps.config.botToken) return null;
  const api = new Api(deps.config.botToken, { apiRoot: deps.config.botApiRoot });
  if (deps.metrics) api.config.use(countBotApiCalls(deps.metrics));
  api.config.use(htmlByDefault);
  return { api };
}

/**
 * Parameters that are not the Bot API's own, filled in at send time so that core never has to know
 * the bot's username or hold file handles in a queued row:
 * - `deep_link_button: {text, start}` becomes a URL button to t.me/<bot>?start=<start>, and URL
 *   buttons `bot-start:<payload>` become t.me/<bot>?start=… links, the username asked once with
 *   getMe (rows queued by releases before buttons acted in place, core/deep-link.ts, carry them);
 * - `stored_document: {path, fileName}` becomes `document`, the bytes read from the file the
 *   routes' `storedDocument` opens (secure storage).
 */
async function sendableParams(
  deps: Deps,
  routes: DeliveryRoutes,
  plain: PlainApi,
  params: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  const { deep_link_button: button, stored_document: stored, ...rest } = params as Record<string, any>;
  const username = async () => {
    plain.username ??= plain.api.getMe().then((me) => me.username);
    return await plain.username.catch((e) => {
      plain.username = undefined; // ask again next time
      throw e;
    });
  };
  let out: Record<string, unknown> = rest;
  if (button)
    out.reply_markup = { inline_keyboard: [[{ text: button.text, url: `https://t.me/${await username()}?start=${button.start}` }]] };
  else if (hasStartLinks(out)) out = resolveStartLinks(out, await username());
  if (stored) {
    const bytes = await routes.storedDocument(deps, stored.path);
    if (!bytes) return null;
    out.document = new InputFile(bytes, stored.fileName);
  }
  return out;
}

async function attemptBot(deps: Deps, routes: DeliveryRoutes, plain: PlainApi | null, row: OutboxRow): Promise<Outcome> {
  if (!plain) return { type: "later", at: new Date(deps.clock.now().getTime() + 60_000), error: "BOT_TOKEN is not set" };
  const call = (plain.api.raw as unknown as Record<string, (p: unknown, s?: AbortSignal) => Promise<unknown>>)[row.method];
  if (typeof call !== "function") return { type: "error", error: `unknown Bot API method ${row.method}`, permanent: true };
  try {
    // chat ids are stored as text; numeric ones go out as numbers, as callers passed them
    const chatId = /^-?\d+$/.test(row.target) ? Number(row.target) : row.target;
    const params = await sendableParams(deps, routes, plain, row.payload);
    if (!params) return { type: "cancelled", note: "the stored file was deleted before it could be sent" };
    const late = roomToSend(deps, row);
    if (late) return late;
    await call({ chat_id: chatId, ...params }, AbortSignal.timeout(BOT_TIMEOUT_MS));
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
