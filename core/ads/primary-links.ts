/**
 * The primary invite link of each of the account's channels, as Telegram tells it (`getChat`'s
 * `invite_link`): the one link of an own channel the service did not make that it can still know as
 * the channel's. Cached for a few minutes per chat (a post is checked many times while it is edited);
 * a chat Telegram will not describe has none.
 */
import type { Deps } from "../deps";
import type { ChannelRow } from "../channels/ownership";

const CACHE_FOR = 5 * 60_000;

/** The primary link of each chat asked of Telegram lately (null: none or unknown), on this node; one in Deps. */
export class PrimaryLinkCache {
  readonly entries = new Map<string, { link: string | null; at: number }>();
}

/** The hash of a `t.me/+hash` or `t.me/joinchat/hash` link (any Telegram host), or null. */
export function inviteHash(url: string): string | null {
  if (!URL.canParse(url)) return null;
  const u = new URL(url);
  if (!/^(www\.)?(t\.me|telegram\.me|telegram\.dog)$/i.test(u.hostname)) return null;
  const parts = u.pathname.split("/").filter(Boolean);
  if (parts.length === 1 && parts[0]!.startsWith("+") && parts[0]!.length > 1) return parts[0]!.slice(1);
  if (parts.length === 2 && parts[0] === "joinchat") return parts[1]!;
  return null;
}

/** The channels by the hash of their primary invite link. */
export async function primaryLinks(
  deps: Pick<Deps, "telegram" | "clock" | "primaryLinks">,
  channels: ChannelRow[],
): Promise<Map<string, ChannelRow>> {
  const out = new Map<string, ChannelRow>();
  const api = deps.telegram;
  if (!api || !channels.length) return out;
  const known = deps.primaryLinks.entries;
  const now = deps.clock.now().getTime();
  await Promise.all(
    channels.map(async (c) => {
      let hit = known.get(c.chatId);
      if (!hit || now - hit.at >= CACHE_FOR) {
        const link = await api.getChat(c.chatId).then(
          (chat) => ("invite_link" in chat ? (chat.invite_link ?? null) : null),
          () => null,
        );
        hit = { link, at: now };
        known.set(c.chatId, hit);
      }
      const hash = hit.link ? inviteHash(hit.link) : null;
      if (hash) out.set(hash, c);
    }),
  );
  return out;
}
