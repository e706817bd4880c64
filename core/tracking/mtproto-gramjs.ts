import type { Config } from "../../config";
import type { MtprotoChat, MtprotoClient, MtprotoPost } from "./mtproto";

/**
 * The MtprotoClient over GramJS (`telegram` package), logged in with a saved StringSession
 * (MTPROTO_SESSION: create one once with GramJS's interactive login and keep the printed string).
 * Not exercised by the test suite (no Telegram here); the logic it feeds is, through a fake client.
 */
export async function createGramJsClient(cfg: NonNullable<Config["mtproto"]>): Promise<MtprotoClient> {
  const { TelegramClient, Api } = await import("telegram");
  const { StringSession } = await import("telegram/sessions");
  const { NewMessage } = await import("telegram/events");
  const { EditedMessage } = await import("telegram/events/EditedMessage");
  const { DeletedMessage } = await import("telegram/events/DeletedMessage");
  const client = new TelegramClient(new StringSession(cfg.session), cfg.apiId, cfg.apiHash, { connectionRetries: 5 });

  const chatIdOf = (peer: unknown): string | null => {
    if (peer instanceof Api.PeerChannel) return `-100${peer.channelId.toString()}`;
    if (peer instanceof Api.PeerChat) return `-${peer.chatId.toString()}`;
    return null;
  };

  const toPost = (message: { id: number; message?: string; peerId: unknown }): MtprotoPost | null => {
    const chatId = chatIdOf(message.peerId);
    return chatId && message.message ? { chatId, messageId: message.id, text: message.message } : null;
  };

  return {
    async connect() {
      await client.connect();
      if (!(await client.checkAuthorization())) throw new Error("MTPROTO_SESSION is not an authorised session");
    },
    async disconnect() {
      await client.disconnect();
    },
    async listChats(): Promise<MtprotoChat[]> {
      const chats: MtprotoChat[] = [];
      for (const dialog of await client.getDialogs({})) {
        const e = dialog.entity;
        if (e instanceof Api.Channel)
          chats.push({
            chatId: `-100${e.id.toString()}`,
            type: e.broadcast ? "channel" : "supergroup",
            title: e.title,
            username: e.username ?? null,
            memberCount: e.participantsCount ?? null,
          });
        else if (e instanceof Api.Chat)
          chats.push({
            chatId: `-${e.id.toString()}`,
            type: "group",
            title: e.title,
            username: null,
            memberCount: e.participantsCount ?? null,
          });
      }
      return chats;
    },
    async messageViews(username, messageId) {
      const res = await client.invoke(new Api.messages.GetMessagesViews({ peer: username, id: [messageId], increment: false }));
      return res.views[0]?.views ?? null;
    },
    subscribe(handlers) {
      const onMessage = (event: { message: { id: number; message?: string; peerId: unknown } }) => {
        const post = toPost(event.message);
        if (post) handlers.post(post);
      };
      client.addEventHandler(onMessage, new NewMessage({}));
      client.addEventHandler(onMessage, new EditedMessage({}));
      client.addEventHandler((event: { deletedIds: number[]; peer?: unknown }) => {
        const chatId = chatIdOf(event.peer);
        if (chatId) handlers.deleted(chatId, event.deletedIds);
      }, new DeletedMessage({}));
    },
  };
}
