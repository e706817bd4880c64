/**
 * A fake Telegram Bot API server speaking HTTP on loopback. Point grammY at it with
 * BOT_API_ROOT = fake.url. It answers getMe, long-polls getUpdates from a queue the test fills,
 * records every other call (JSON or multipart, files kept as bytes) and answers with plausible results.
 */
import type { Server } from "bun";

export const FAKE_BOT_TOKEN = "123456789:TEST_fake_token_for_tests_only_abcdef";
export const FAKE_BOT = { id: 123456789, is_bot: true, first_name: "Test Bot", username: "test_bot" };

export interface RecordedCall {
  method: string;
  /** JSON fields, or multipart text fields (JSON-decoded when they look like JSON) */
  params: Record<string, any>;
  /** multipart files by field name */
  files: Record<string, { name: string; type: string; bytes: Uint8Array }>;
  /** what the fake answered */
  result?: any;
}

type Handler = (params: Record<string, any>, call: RecordedCall) => unknown;

export class FakeBotApi {
  server!: Server<undefined>;
  calls: RecordedCall[] = [];
  private updates: any[] = [];
  private nextUpdateId = 1;
  private nextMessageId = 1000;
  private waiters: (() => void)[] = [];
  private handlers = new Map<string, Handler>();
  /** files served by getFile and /file/bot<token>/<path> */
  files = new Map<string, Uint8Array<ArrayBuffer>>();
  /** method → error to answer once (e.g. {error_code: 403, description: "Forbidden: bot was blocked by the user"}) */
  failNext = new Map<string, { error_code: number; description: string; parameters?: Record<string, unknown>; times?: number }>();

  /** The failure set for `method`, spent once (`times` more when given). */
  private takeFailure(method: string) {
    const failure = this.failNext.get(method);
    if (!failure) return null;
    if ((failure.times ?? 1) <= 1) this.failNext.delete(method);
    else failure.times = failure.times! - 1;
    const { times: _times, ...answer } = failure;
    return answer;
  }

  get url() {
    return `http://127.0.0.1:${this.server.port}`;
  }

  start() {
    this.server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => this.handle(req) });
    return this;
  }

  async stop() {
    for (const w of this.waiters.splice(0)) w();
    this.server.stop(true);
  }

  /** Answer `method` with a custom result. */
  on(method: string, handler: Handler) {
    this.handlers.set(method, handler);
    return this;
  }

  /** Queue an update for the bot's next getUpdates. */
  pushUpdate(update: Record<string, unknown>) {
    this.updates.push({ update_id: this.nextUpdateId++, ...update });
    for (const w of this.waiters.splice(0)) w();
  }

  /** A private text message from `from` (default user 42). */
  pushMessage(text: string, from: Partial<{ id: number; username: string; first_name: string }> = {}, extra: Record<string, unknown> = {}) {
    const user = { id: 42, is_bot: false, first_name: "Alice", username: "alice", ...from };
    const entities = text.startsWith("/") ? [{ type: "bot_command", offset: 0, length: text.split(" ")[0]!.length }] : undefined;
    this.pushUpdate({
      message: { message_id: this.nextMessageId++, date: Math.floor(Date.now() / 1000), chat: { id: user.id, type: "private", first_name: user.first_name, username: user.username }, from: user, text, entities, ...extra },
    });
  }

  /** A press of an inline button with `data` on a message the bot sent to `from`. */
  pushCallback(data: string, from: Partial<{ id: number; username: string; first_name: string }> = {}, messageId = 1) {
    const user = { id: 42, is_bot: false, first_name: "Alice", username: "alice", ...from };
    this.pushUpdate({
      callback_query: { id: String(this.nextUpdateId), from: user, chat_instance: "1", data, message: { message_id: messageId, date: Math.floor(Date.now() / 1000), chat: { id: user.id, type: "private" }, from: FAKE_BOT, text: "…" } },
    });
  }

  /**
   * Presses the newest inline button whose text matches `label`, on the message it was sent or edited
   * onto (as a person would tap what they see). Returns the pressed button's callback data.
   */
  press(label: string | RegExp, from: Partial<{ id: number; username: string; first_name: string }> = {}): string {
    const matches = (t: string) => (typeof label === "string" ? t === label : label.test(t));
    for (let i = this.calls.length - 1; i >= 0; i--) {
      const c = this.calls[i]!;
      const rows = c.params.reply_markup?.inline_keyboard as { text: string; callback_data?: string }[][] | undefined;
      const button = rows?.flat().find((b) => b.callback_data && matches(b.text));
      if (!button) continue;
      const messageId = Number(c.params.message_id ?? c.result?.message_id ?? 1);
      this.pushCallback(button.callback_data!, from, messageId);
      return button.callback_data!;
    }
    throw new Error(`fake Bot API: no button ${label} on any message; buttons seen last: ${JSON.stringify(this.calls.at(-1)?.params.reply_markup ?? null)}`);
  }

  callsOf(method: string) {
    return this.calls.filter((c) => c.method === method);
  }

  /** Resolves with the first call (already made or future) of `method` that satisfies `pred`. */
  async waitFor(method: string, pred: (c: RecordedCall) => boolean = () => true, timeoutMs = 5000): Promise<RecordedCall> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.calls.find((c) => c.method === method && pred(c));
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`fake Bot API: no ${method} call matched within ${timeoutMs} ms; calls: ${this.calls.map((c) => c.method).join(", ")}`);
      await Bun.sleep(10);
    }
  }

  private async handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const file = /^\/file\/bot[^/]+\/(.+)$/.exec(url.pathname);
    if (file) {
      const bytes = this.files.get(decodeURIComponent(file[1]!));
      return bytes ? new Response(bytes) : new Response("not found", { status: 404 });
    }
    const m = /^\/bot([^/]+)\/(\w+)$/.exec(url.pathname);
    if (!m) return Response.json({ ok: false, error_code: 404, description: "Not Found" }, { status: 404 });
    if (m[1] !== FAKE_BOT_TOKEN) return Response.json({ ok: false, error_code: 401, description: "Unauthorized" }, { status: 401 });
    const method = m[2]!;
    const call: RecordedCall = { method, params: {}, files: {} };
    const type = req.headers.get("content-type") ?? "";
    if (type.includes("application/json")) call.params = (await req.json()) as Record<string, any>;
    else if (type.includes("multipart/form-data")) {
      const form = await req.formData();
      for (const [k, v] of form.entries()) {
        if (typeof v === "string") {
          try {
            call.params[k] = /^[[{"]|^-?\d+$|^(true|false)$/.test(v) ? JSON.parse(v) : v;
          } catch {
            call.params[k] = v;
          }
        } else {
          const f = v as unknown as File;
          call.files[k] = { name: f.name, type: f.type, bytes: new Uint8Array(await f.arrayBuffer()) };
        }
      }
      // grammY sends files as attach://<id> references
      for (const [k, v] of Object.entries(call.params))
        if (typeof v === "string" && v.startsWith("attach://") && call.files[v.slice(9)]) call.files[k] = call.files[v.slice(9)]!;
    } else for (const [k, v] of url.searchParams) call.params[k] = v;

    if (method === "getUpdates") {
      const refused = this.takeFailure(method);
      if (refused) return Response.json({ ok: false, ...refused }, { status: refused.error_code });
      return Response.json({ ok: true, result: await this.getUpdates(call.params) });
    }
    this.calls.push(call);
    const failure = this.takeFailure(method);
    if (failure) return Response.json({ ok: false, ...failure }, { status: failure.error_code });
    const custom = this.handlers.get(method);
    call.result = custom ? await custom(call.params, call) : this.defaultResult(method, call.params);
    return Response.json({ ok: true, result: call.result });
  }

  private async getUpdates(params: Record<string, any>) {
    const offset = Number(params.offset ?? 0);
    this.updates = this.updates.filter((u) => u.update_id >= offset);
    if (!this.updates.length) {
      const timeout = Math.min(Number(params.timeout ?? 0), 1) * 1000;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeout);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.updates.slice(0, Number(params.limit ?? 100));
  }

  private defaultResult(method: string, p: Record<string, any>): unknown {
    switch (method) {
      case "getMe":
        return FAKE_BOT;
      case "getFile": {
        const path = `files/${p.file_id}`;
        return { file_id: p.file_id, file_unique_id: p.file_id, file_size: this.files.get(path)?.length, file_path: path };
      }
      case "getChatMemberCount":
        return 1234;
      case "getChat":
        return { id: Number(p.chat_id), type: "channel", title: "Chat" };
      case "answerCallbackQuery":
      case "deleteWebhook":
      case "setWebhook":
      case "setMyCommands":
      case "setChatMenuButton":
      case "deleteMessage":
      case "sendChatAction":
        return true;
      default:
        if (method.startsWith("send") || method.startsWith("edit"))
          return { message_id: this.nextMessageId++, date: Math.floor(Date.now() / 1000), chat: { id: Number(p.chat_id) || 0, type: "private" }, text: p.text ?? p.caption };
        return true;
    }
  }
}
