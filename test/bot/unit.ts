/**
 * grammY's own test technique: the real bot gets updates through bot.handleUpdate, and an API
 * transformer records every call and answers it (no network). Conversations call the Bot API through
 * their own client, which no transformer of the bot reaches, so BOT_API_ROOT points at the fake Bot API
 * for those, and the fake records into the same list: `calls` is every call in order.
 * `press(label)` taps the newest button with that text, on the message that carries it.
 */
import type { InlineKeyboardButton, UserFromGetMe } from "grammy/types";
import { createTestApp } from "../helpers/app";
import { htmlByDefault } from "../../core/delivery/parse-mode";
import {
  FakeBotApi,
  FAKE_BOT,
  FAKE_BOT_TOKEN,
  entitiesRefusal,
  keyboardRefusal,
  plainOf,
  type RecordedCall,
} from "../helpers/fake-bot-api";
import { InputFile } from "grammy";
import { createBot } from "../../bot/bot";

export type ApiCall = RecordedCall;

const TEST_USER = { id: 42, is_bot: false, first_name: "Alice", username: "alice" };

/** `from` changes the test user (e.g. `{ language_code: "ru" }`). */
export function unitBot(env: Record<string, string> = {}, from: Record<string, unknown> = {}) {
  const USER = { ...TEST_USER, ...from } as typeof TEST_USER;
  const fake = new FakeBotApi().start();
  const t = createTestApp({ env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url, BASE_URL: "https://links.example.com", ...env } });
  const bot = createBot(t.deps as Parameters<typeof createBot>[0]);
  bot.botInfo = {
    ...FAKE_BOT,
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: true,
    can_connect_to_business: false,
    has_main_web_app: false,
  } as UserFromGetMe;
  const calls: ApiCall[] = fake.calls;
  /** answers for the next call of a method; `{error_code, description}` is a Bot API error */
  const canned = new Map<string, () => unknown>();
  let messageId = 5000;
  let updateId = 1;
  bot.api.config.use(async (_prev, method, sent) => {
    // recorded as it leaves the bot: in the parse mode the bot's transformer gives every message
    const payload = await htmlByDefault(async (_m, p) => p as never, method, sent);
    // files are recorded by name (an InputFile refuses to be serialised)
    const p = Object.fromEntries(
      Object.entries(payload ?? {}).map(([k, v]) => [
        k,
        v instanceof InputFile ? { file: v.filename } : JSON.parse(JSON.stringify(v ?? null)),
      ]),
    ) as Record<string, any>;
    // Telegram's refusals of what it never takes (callback data over 64 bytes, HTML it cannot read)
    const refused = keyboardRefusal(p) ?? entitiesRefusal(p);
    if (refused) {
      calls.push({ method, params: p, files: {}, result: { error_code: 400, description: refused } });
      return { ok: false, error_code: 400, description: refused } as any;
    }
    const custom = canned.get(method);
    if (custom) canned.delete(method);
    const result = custom
      ? custom()
      : method.startsWith("send") || method.startsWith("edit")
        ? { message_id: p.message_id ?? messageId++, date: 0, chat: { id: p.chat_id ?? USER.id, type: "private" }, text: p.text }
        : method === "getChatMemberCount"
          ? 321
          : true;
    calls.push({ method, params: p, files: {}, result });
    // a canned Bot API error: {error_code, description}
    if (custom && (result as { error_code?: number })?.error_code) return { ok: false, ...(result as object) } as any;
    return { ok: true, result } as any;
  });

  const message = (text: string, extra: Record<string, unknown> = {}, from = USER) => ({
    message_id: messageId++,
    date: 0,
    chat: { id: from.id, type: "private" as const, first_name: from.first_name },
    from,
    text,
    ...(text.startsWith("/") ? { entities: [{ type: "bot_command" as const, offset: 0, length: text.split(" ")[0]!.length }] } : {}),
    ...extra,
  });

  /** The newest call with a button labelled `label` and that button. */
  function findButton(label: string | RegExp) {
    const matches = (s: string) => (typeof label === "string" ? s === label : label.test(s));
    for (let i = calls.length - 1; i >= 0; i--) {
      const rows = calls[i]!.params.reply_markup?.inline_keyboard as InlineKeyboardButton[][] | undefined;
      const button = rows?.flat().find((b) => "callback_data" in b && matches(b.text));
      if (button) return { call: calls[i]!, button: button as InlineKeyboardButton.CallbackButton };
    }
    return null;
  }

  return {
    t,
    bot,
    calls,
    canned,
    /** a private text message from the user */
    async send(text: string, extra: Record<string, unknown> = {}) {
      await bot.handleUpdate({ update_id: updateId++, message: message(text, extra) } as any);
    },
    async update(u: Record<string, unknown>) {
      await bot.handleUpdate({ update_id: updateId++, ...u } as any);
    },
    /** taps the newest button labelled `label`; returns the calls that tap caused */
    async press(label: string | RegExp) {
      const found = findButton(label);
      if (!found)
        throw new Error(
          `no button ${label}; last keyboard: ${JSON.stringify(calls.findLast((c) => c.params.reply_markup)?.params.reply_markup?.inline_keyboard?.map((r: any[]) => r.map((b) => b.text)))}`,
        );
      const shown = plainOf(found.call.params);
      return await this.tap(found.button.callback_data, Number(found.call.params.message_id ?? found.call.result?.message_id), {
        ...(Object.keys(shown).length ? shown : { text: "…" }),
        reply_markup: found.call.params.reply_markup,
      });
    },
    /** a press of a button with `data` on message `messageId`, which shows `shown` (its text and buttons) */
    async tap(data: string, messageId = 1, shown: Record<string, unknown> = { text: "…" }) {
      const before = calls.length;
      await bot.handleUpdate({
        update_id: updateId++,
        callback_query: {
          id: String(updateId),
          from: USER,
          chat_instance: "1",
          data,
          message: { message_id: messageId, date: 1, chat: { id: USER.id, type: "private" }, from: FAKE_BOT, ...shown },
        },
      } as any);
      return calls.slice(before);
    },
    findButton,
    /** the newest call of `method` */
    last(method: string) {
      const c = calls.findLast((x) => x.method === method);
      if (!c) throw new Error(`no ${method} call; calls: ${calls.map((x) => x.method).join(", ")}`);
      return c;
    },
    /** the texts of the buttons of a call, row by row */
    labels(c: ApiCall): string[][] {
      return (c.params.reply_markup?.inline_keyboard ?? []).map((r: InlineKeyboardButton[]) => r.map((b) => b.text));
    },
    fake,
    async close() {
      await fake.stop();
      t.close();
    },
  };
}
