/**
 * A fake Telegram Bot API server speaking HTTP on loopback. Point grammY at it with
 * BOT_API_ROOT = fake.url. It answers getMe, long-polls getUpdates from a queue the test fills,
 * records every other call (JSON or multipart, files kept as bytes) and answers with plausible results.
 */
import type { Server } from "bun";
import { readHtml } from "./telegram-html";

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

/** What Telegram sends when `allowed_updates` is empty or was never given: everything but these. */
const WITHHELD_BY_DEFAULT = new Set(["chat_member", "message_reaction", "message_reaction_count"]);

/**
 * A ChatMember of `status`; "restricted" is a restricted member ("restricted-out": one who is not a
 * member); "administrator" may invite users, "administrator-no-invite" is one without that right.
 */
function memberOf(status: string, user: Record<string, unknown>) {
  if (status === "restricted") return { status, user, is_member: true, until_date: 0 };
  if (status === "restricted-out") return { status: "restricted", user, is_member: false, until_date: 0 };
  if (status === "administrator" || status === "administrator-no-invite")
    return { ...ADMIN_RIGHTS, status: "administrator", user, can_invite_users: status === "administrator" };
  return { status, user };
}

/** An administrator's rights as Telegram lists them (can_invite_users set by memberOf). */
const ADMIN_RIGHTS = {
  can_be_edited: false,
  is_anonymous: false,
  can_manage_chat: true,
  can_delete_messages: true,
  can_manage_video_chats: false,
  can_restrict_members: true,
  can_promote_members: false,
  can_change_info: false,
  can_post_stories: false,
  can_edit_stories: false,
  can_delete_stories: false,
};

/**
 * The bot as an administrator of a chat with the least rights the service needs (it may invite
 * users; it deletes and restricts nothing): the `new_chat_member` of a my_chat_member update.
 */
export const BOT_ADMIN = {
  ...ADMIN_RIGHTS,
  status: "administrator",
  user: FAKE_BOT,
  can_delete_messages: false,
  can_restrict_members: false,
  can_invite_users: true,
};

/** Telegram's refusal of a keyboard: callback data must be 1 to 64 bytes. */
export function keyboardRefusal(params: Record<string, any>): string | null {
  const rows = params.reply_markup?.inline_keyboard as { callback_data?: unknown }[][] | undefined;
  for (const b of rows?.flat() ?? [])
    if (
      b.callback_data !== undefined &&
      (typeof b.callback_data !== "string" || !b.callback_data || Buffer.byteLength(b.callback_data) > 64)
    )
      return "Bad Request: BUTTON_DATA_INVALID";
  return null;
}

/** The text a person sees of a message sent with `params` (HTML read as Telegram reads it), as Telegram hands it back. */
export function plainOf(params: Record<string, any>): { text?: string; caption?: string } {
  const plain = (s: unknown) => {
    if (params.parse_mode !== "HTML") return String(s);
    const read = readHtml(String(s));
    return "text" in read ? read.text : String(s);
  };
  if (params.text !== undefined) return { text: plain(params.text) };
  if (params.caption !== undefined) return { caption: plain(params.caption) };
  return {};
}

/** Telegram's refusal of a text or caption (a message's, or an inline result's) it cannot read as HTML. */
export function entitiesRefusal(p: Record<string, any>): string | null {
  const texts: [unknown, unknown][] = [
    [p.text, p.parse_mode],
    [p.caption, p.parse_mode],
    ...((Array.isArray(p.results) ? p.results : []) as Record<string, any>[]).flatMap((r): [unknown, unknown][] => [
      [r.input_message_content?.message_text, r.input_message_content?.parse_mode],
      [r.caption, r.parse_mode],
    ]),
  ];
  for (const [text, mode] of texts) {
    if (mode !== "HTML" || text === undefined) continue;
    const read = readHtml(String(text));
    if ("refusal" in read) return read.refusal;
  }
  return null;
}

/** A chat the fake knows: a forum (`is_forum`) has the topics listed in `topics` (their message_thread_id). */
export interface FakeChat {
  id: number;
  type: string;
  title?: string;
  username?: string;
  is_forum?: boolean;
  topics?: number[];
}

/**
 * Telegram's refusal of a message into a topic that is not there: a private chat has no topics, and
 * a known group only the topics of its forum. (A chat the test did not add is not judged.)
 */
function threadRefusal(method: string, p: Record<string, any>, chat: FakeChat | undefined): string | null {
  if (p.message_thread_id === undefined || !/^(send|copyMessage|forwardMessage)/.test(method)) return null;
  const privateChat = Number(p.chat_id) > 0;
  if (privateChat || (chat && !(chat.is_forum && chat.topics?.includes(Number(p.message_thread_id)))))
    return "Bad Request: message thread not found";
  return null;
}

/** A chat member as getChatMember answers it. */
export type FakeMember = { status: string; can_invite_users?: boolean; is_member?: boolean };

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
  /**
   * The update types the bot asked for last (getUpdates or setWebhook `allowed_updates`), as Telegram
   * remembers them; null until it asks. Updates of other types are dropped, never delivered.
   */
  allowedUpdates: string[] | null = null;
  /** chats getChat knows, by id and by "@username"; a forum lists the ids of its topics */
  chats = new Map<string, FakeChat>();
  /** getChatMember answers by "<chat id>:<user id>"; the bot is an administrator that may invite unless set, anyone else has left */
  members = new Map<string, FakeMember>();
  /** invite links made through createChatInviteLink, by link */
  inviteLinks = new Map<string, Record<string, any>>();
  private nextInvite = 1;

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

  /** The highest offset getUpdates was called with: every update below it has been handled (polling confirms by asking on). */
  private confirmed = 0;

  /** Resolves once the bot has handled every update pushed so far (it polled again past the last one). */
  async handledAll(timeoutMs = 10_000): Promise<void> {
    const target = this.nextUpdateId;
    const until = Date.now() + timeoutMs;
    while (this.confirmed < target) {
      if (Date.now() > until) throw new Error(`the bot has not handled update ${target - 1} within ${timeoutMs} ms`);
      await Bun.sleep(5);
    }
  }

  /**
   * Queue an update for the bot's next getUpdates. Telegram's own state follows what it reports: a
   * person who made the bot an administrator (`my_chat_member`) is one of the chat's administrators,
   * taken to be its creator unless the test set their standing; a `chat_member` update is each
   * person's new standing for getChatMember.
   */
  pushUpdate(update: Record<string, unknown>) {
    const mine = update.my_chat_member as
      | { chat: { id: number }; from: { id: number; is_bot: boolean }; new_chat_member: { status: string } }
      | undefined;
    if (mine && !mine.from.is_bot && ["administrator", "creator"].includes(mine.new_chat_member.status)) {
      const key = `${mine.chat.id}:${mine.from.id}`;
      if (!this.members.has(key)) this.members.set(key, { status: "creator" });
    }
    const change = update.chat_member as { chat: { id: number }; new_chat_member: FakeMember & { user: { id: number } } } | undefined;
    if (change) {
      const { user, ...member } = change.new_chat_member;
      this.members.set(`${change.chat.id}:${user.id}`, member);
    }
    this.updates.push({ update_id: this.nextUpdateId++, ...update });
    for (const w of this.waiters.splice(0)) w();
  }

  /** Adds a chat getChat answers for, by id and by @username. */
  addChat(chat: FakeChat) {
    this.chats.set(String(chat.id), chat);
    if (chat.username) this.chats.set(`@${chat.username}`, chat);
    return this;
  }

  /**
   * A `chat_member` update as Telegram sends it: `user` goes from `from` to `to` in `chat` at `date`
   * (seconds; "restricted" is a restricted member, "restricted-out" a restricted non-member). `inviteLink` names a link the bot made: the update carries that link's full
   * ChatInviteLink object, as Telegram does on a join through it (a link it did not make is sent as
   * made by someone else).
   */
  pushChatMember(
    chat: { id: number; type: string; title?: string; username?: string },
    user: { id: number; first_name?: string; username?: string },
    from: string,
    to: string,
    date: number,
    extra: { inviteLink?: string; via_join_request?: boolean; via_chat_folder_invite_link?: boolean } = {},
  ) {
    const person = { is_bot: false, first_name: "Person", ...user };
    const link = extra.inviteLink
      ? (this.inviteLinks.get(extra.inviteLink) ?? {
          invite_link: extra.inviteLink,
          creator: { id: 999, is_bot: false, first_name: "Someone" },
          creates_join_request: false,
          is_primary: false,
          is_revoked: false,
        })
      : undefined;
    this.pushUpdate({
      chat_member: {
        chat,
        from: person,
        date,
        old_chat_member: memberOf(from, person),
        new_chat_member: memberOf(to, person),
        ...(link ? { invite_link: link } : {}),
        ...(extra.via_join_request ? { via_join_request: true } : {}),
        ...(extra.via_chat_folder_invite_link ? { via_chat_folder_invite_link: true } : {}),
      },
    });
  }

  /** A private text message from `from` (default user 42). */
  pushMessage(text: string, from: Partial<{ id: number; username: string; first_name: string }> = {}, extra: Record<string, unknown> = {}) {
    const user = { id: 42, is_bot: false, first_name: "Alice", username: "alice", ...from };
    const entities = text.startsWith("/") ? [{ type: "bot_command", offset: 0, length: text.split(" ")[0]!.length }] : undefined;
    this.pushUpdate({
      message: {
        message_id: this.nextMessageId++,
        date: Math.floor(Date.now() / 1000),
        chat: { id: user.id, type: "private", first_name: user.first_name, username: user.username },
        from: user,
        text,
        entities,
        ...extra,
      },
    });
  }

  /**
   * A message in a group or supergroup from `from` (a command gets its entity): in a forum, `topic`
   * is the topic it was sent in, as Telegram marks it (message_thread_id and is_topic_message).
   */
  pushGroupMessage(text: string, chat: FakeChat, from: Partial<{ id: number; username: string; first_name: string }> = {}, topic?: number) {
    const user = { id: 42, is_bot: false, first_name: "Alice", username: "alice", ...from };
    const entities = text.startsWith("/") ? [{ type: "bot_command", offset: 0, length: text.split(" ")[0]!.length }] : undefined;
    const { topics: _topics, ...shown } = chat;
    this.pushUpdate({
      message: {
        message_id: this.nextMessageId++,
        date: Math.floor(Date.now() / 1000),
        chat: shown,
        from: user,
        text,
        entities,
        ...(topic !== undefined ? { message_thread_id: topic, is_topic_message: true } : {}),
      },
    });
  }

  /** A press of an inline button with `data` on a message the bot sent to `from`. */
  pushCallback(
    data: string,
    from: Partial<{ id: number; username: string; first_name: string; language_code: string }> = {},
    messageId = 1,
    shown: Record<string, unknown> = { text: "…" },
  ) {
    const user = { id: 42, is_bot: false, first_name: "Alice", username: "alice", ...from };
    this.pushUpdate({
      callback_query: {
        id: String(this.nextUpdateId),
        from: user,
        chat_instance: "1",
        data,
        message: {
          message_id: messageId,
          date: Math.floor(Date.now() / 1000),
          chat: { id: user.id, type: "private" },
          from: FAKE_BOT,
          ...shown,
        },
      },
    });
  }

  /**
   * Presses the newest inline button whose text matches `label`, on the message it was sent or edited
   * onto (as a person would tap what they see). Returns the pressed button's callback data.
   */
  press(label: string | RegExp, from: Partial<{ id: number; username: string; first_name: string; language_code: string }> = {}): string {
    const matches = (t: string) => (typeof label === "string" ? t === label : label.test(t));
    for (let i = this.calls.length - 1; i >= 0; i--) {
      const c = this.calls[i]!;
      const rows = c.params.reply_markup?.inline_keyboard as { text: string; callback_data?: string }[][] | undefined;
      const button = rows?.flat().find((b) => b.callback_data && matches(b.text));
      if (!button) continue;
      const messageId = Number(c.params.message_id ?? c.result?.message_id ?? 1);
      // the pressed message as Telegram hands it to the bot: its text (or caption) and its buttons
      const shown = plainOf(c.params);
      this.pushCallback(button.callback_data!, from, messageId, {
        ...(Object.keys(shown).length ? shown : { text: "…" }),
        reply_markup: c.params.reply_markup,
      });
      return button.callback_data!;
    }
    throw new Error(
      `fake Bot API: no button ${label} on any message; buttons seen last: ${JSON.stringify(this.calls.at(-1)?.params.reply_markup ?? null)}`,
    );
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
      if (Date.now() > deadline)
        throw new Error(
          `fake Bot API: no ${method} call matched within ${timeoutMs} ms; calls: ${this.calls.map((c) => c.method).join(", ")}`,
        );
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
    if (method === "setWebhook" && call.params.allowed_updates !== undefined) this.allowedUpdates = call.params.allowed_updates;
    const refusal = this.refusal(method, call.params);
    if (refusal) {
      call.result = { error_code: 400, description: refusal };
      return Response.json({ ok: false, ...call.result }, { status: 400 });
    }
    const failure = this.takeFailure(method);
    if (failure) return Response.json({ ok: false, ...failure }, { status: failure.error_code });
    const custom = this.handlers.get(method);
    call.result = custom ? await custom(call.params, call) : this.defaultResult(method, call.params);
    return Response.json({ ok: true, result: call.result });
  }

  /** Telegram's own checks on keyboards and invite links, answered as it answers them. */
  private refusal(method: string, p: Record<string, any>): string | null {
    const keyboard = keyboardRefusal(p);
    if (keyboard) return keyboard;
    const entities = entitiesRefusal(p);
    if (entities) return entities;
    const thread = threadRefusal(method, p, this.chats.get(String(p.chat_id)));
    if (thread) return thread;
    if (method === "getChatMember" && !(Number.isSafeInteger(Number(p.user_id)) && Number(p.user_id) > 0))
      return "Bad Request: PARTICIPANT_ID_INVALID";
    if (method !== "createChatInviteLink" && method !== "editChatInviteLink") return null;
    if (p.name !== undefined && [...String(p.name)].length > 32) return "Bad Request: invite link name is too long";
    if (p.creates_join_request && p.member_limit)
      return "Bad Request: member limit can't be specified for links requiring administrator approval";
    if (method === "editChatInviteLink" && !this.inviteLinks.has(p.invite_link)) return "Bad Request: INVITE_HASH_EXPIRED";
    return null;
  }

  private delivers(update: Record<string, unknown>): boolean {
    const type = Object.keys(update).find((k) => k !== "update_id")!;
    return this.allowedUpdates?.length ? this.allowedUpdates.includes(type) : !WITHHELD_BY_DEFAULT.has(type);
  }

  private async getUpdates(params: Record<string, any>) {
    const offset = Number(params.offset ?? 0);
    this.confirmed = Math.max(this.confirmed, offset);
    if (params.allowed_updates !== undefined) this.allowedUpdates = params.allowed_updates;
    this.updates = this.updates.filter((u) => u.update_id >= offset && this.delivers(u));
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
    this.updates = this.updates.filter((u) => this.delivers(u));
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
        return this.chats.get(String(p.chat_id)) ?? { id: Number(p.chat_id), type: "channel", title: "Chat" };
      case "getChatMember": {
        const chat = this.chats.get(String(p.chat_id))?.id ?? p.chat_id;
        const member =
          this.members.get(`${chat}:${p.user_id}`) ??
          (Number(p.user_id) === FAKE_BOT.id ? { status: "administrator", can_invite_users: true } : { status: "left" });
        return { user: { id: Number(p.user_id), is_bot: Number(p.user_id) === FAKE_BOT.id, first_name: "Member" }, ...member };
      }
      case "createChatInviteLink": {
        const link = {
          invite_link: `https://t.me/+fake${String(this.nextInvite++).padStart(6, "0")}`,
          creator: FAKE_BOT,
          creates_join_request: Boolean(p.creates_join_request),
          is_primary: false,
          is_revoked: false,
          ...(p.name !== undefined ? { name: p.name } : {}),
          ...(p.expire_date ? { expire_date: p.expire_date } : {}),
          ...(p.member_limit ? { member_limit: p.member_limit } : {}),
        };
        this.inviteLinks.set(link.invite_link, link);
        return link;
      }
      case "editChatInviteLink": {
        const link = this.inviteLinks.get(p.invite_link)!;
        Object.assign(link, {
          name: p.name,
          creates_join_request: Boolean(p.creates_join_request),
          expire_date: p.expire_date || undefined,
          member_limit: p.member_limit || undefined,
        });
        return link;
      }
      case "revokeChatInviteLink": {
        const link = this.inviteLinks.get(p.invite_link) ?? {
          invite_link: p.invite_link,
          creator: FAKE_BOT,
          creates_join_request: false,
          is_primary: false,
        };
        link.is_revoked = true;
        return link;
      }
      case "answerCallbackQuery":
      case "deleteWebhook":
      case "setWebhook":
      case "setMyCommands":
      case "setChatMenuButton":
      case "deleteMessage":
      case "sendChatAction":
        return true;
      case "copyMessage":
        return { message_id: this.nextMessageId++ };
      default:
        if (method.startsWith("send") || method.startsWith("edit"))
          return {
            message_id: this.nextMessageId++,
            date: Math.floor(Date.now() / 1000),
            chat: { id: Number(p.chat_id) || 0, type: "private" },
            text: p.text ?? p.caption,
          };
        return true;
    }
  }
}
