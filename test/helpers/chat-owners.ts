/**
 * A fake Bot API for tests that call core directly but need Telegram to vouch that a person runs a
 * chat: the service asks getChatMember before it acts for anyone in a chat, and fails closed when
 * there is no Telegram to ask. `runs` makes the person that chat's creator, as Telegram would say.
 */
import { FakeBotApi, FAKE_BOT_TOKEN } from "./fake-bot-api";

export function chatOwnersTelegram() {
  const fake = new FakeBotApi().start();
  return {
    fake,
    /** the configuration that points the service's Bot API client at this fake */
    env: { BOT_TOKEN: FAKE_BOT_TOKEN, BOT_API_ROOT: fake.url },
    runs(chatId: string, personId: number) {
      fake.members.set(`${chatId}:${personId}`, { status: "creator" });
    },
    stop: () => fake.stop(),
  };
}
