import type { Deps } from "../deps";
import { ingestPost, markPostsDeleted } from "./ingest";
import { upsertSource, type ChatType } from "./sources";

/** A channel or group the operator's account follows, in Bot API terms (ids like -100…). */
export interface MtprotoChat {
  chatId: string;
  type: ChatType;
  title: string | null;
  username: string | null;
  memberCount: number | null;
}

/** A new or edited message (text or caption) in a followed chat. */
export interface MtprotoPost {
  chatId: string;
  messageId: number;
  text: string;
}

/**
 * What the MTProto source needs of a Telegram user client. `mtproto-gramjs.ts` implements it with
 * GramJS; tests use a fake. Only the account's own session can do these things (a bot cannot):
 * read channels without being an admin there, list the channels an account follows with their
 * member counts, and learn that channel posts were deleted.
 */
export interface MtprotoClient {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  listChats(): Promise<MtprotoChat[]>;
  /** Starts delivering new and edited messages, and deletions in channels/supergroups. */
  subscribe(handlers: {
    post(post: MtprotoPost): void | Promise<void>;
    deleted(chatId: string, messageIds: number[]): void | Promise<void>;
  }): void;
  /** The views of a post of a public channel (`messages.getMessagesViews`, not counting a view); null when unknown. */
  messageViews?(username: string, messageId: number): Promise<number | null>;
}

/**
 * The optional second source: the channels an operator's Telegram account follows feed the same
 * matcher as the bot, and deletions mark matches `is_deleted` (post_deleted notifications for
 * trackers with notify_on_delete). Enabled by main.ts only when MTPROTO_* is configured.
 */
export function createMtprotoSource(deps: Pick<Deps, "asyncDb" | "clock" | "config" | "log" | "trackerIndex">, client: MtprotoClient) {
  const chats = new Map<string, MtprotoChat>();
  // posts and deletions are taken in the order they arrive, one after the other; stop waits for them
  let work: Promise<void> = Promise.resolve();
  const queue = (what: string, job: () => Promise<unknown>) =>
    (work = work.then(job).then(
      () => {},
      (e) => deps.log.error(`mtproto: could not ${what}`, e),
    ));

  /** Records every followed chat as a source (via mtproto) with its member count. */
  async function sync(): Promise<number> {
    const list = await client.listChats();
    for (const chat of list) {
      chats.set(chat.chatId, chat);
      await upsertSource(
        deps,
        { chatId: chat.chatId, type: chat.type, title: chat.title, username: chat.username, via: "mtproto" },
        { memberCount: chat.memberCount, isActive: true },
      );
    }
    return list.length;
  }

  function post(p: MtprotoPost): Promise<void> {
    const chat = chats.get(p.chatId);
    if (!chat || !p.text) return work; // private dialogs and chats we have not synced are not sources
    const text = p.text;
    return queue(`match message ${p.messageId} of ${p.chatId}`, () =>
      ingestPost(deps, {
        chat: { chatId: chat.chatId, type: chat.type, title: chat.title, username: chat.username, via: "mtproto" },
        messageId: p.messageId,
        text,
      }),
    );
  }

  function deleted(chatId: string, messageIds: number[]): Promise<void> {
    return queue(`record deletions in ${chatId}`, () => markPostsDeleted(deps, chatId, messageIds));
  }

  return {
    sync,
    /** Reads a post's views through the account (placements' views), when the client can. */
    views: client.messageViews ? (username: string, messageId: number) => client.messageViews!(username, messageId) : null,
    /** Connects, syncs the followed chats and starts listening. */
    async start(): Promise<void> {
      await client.connect();
      const n = await sync();
      client.subscribe({ post, deleted });
      deps.log.info(`mtproto: following ${n} chats`);
    },
    async stop() {
      await client.disconnect();
      await work;
    },
  };
}
export type MtprotoSource = ReturnType<typeof createMtprotoSource>;
