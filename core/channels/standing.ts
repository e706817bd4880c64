import type { ChatMember } from "grammy/types";
import type { Clock } from "../clock";

/**
 * A person's standing in a chat, as far as the service's powers there go. A chat is someone's to
 * run through the bot (claim it, make invite links, settle join requests, read who joined, have
 * its messages matched, point notifications into it) while they are its creator, or an
 * administrator with the right to invite users: the bot acts with its own rights, so it acts only
 * for someone who holds that right themselves.
 */
export type Standing =
  | { holds: true }
  | {
      holds: false;
      /** `member` covers a demoted administrator and a restricted member; `no_invite_right` an administrator without can_invite_users */
      reason: "left" | "kicked" | "member" | "no_invite_right";
    };

/** The standing a ChatMember (from getChatMember or a chat_member update) gives. */
export function standingOf(m: Pick<ChatMember, "status"> & { can_invite_users?: boolean; is_member?: boolean }): Standing {
  if (m.status === "creator") return { holds: true };
  if (m.status === "administrator") return m.can_invite_users ? { holds: true } : { holds: false, reason: "no_invite_right" };
  if (m.status === "kicked") return { holds: false, reason: "kicked" };
  if (m.status === "left" || (m.status === "restricted" && !m.is_member)) return { holds: false, reason: "left" };
  return { holds: false, reason: "member" };
}

/** How long a standing asked of Telegram is trusted before it is asked again. */
export const STANDING_TTL_MS = 60_000;
/** At most this many (chat, person) pairs are kept; past it the oldest go first. */
const MAX_ENTRIES = 10_000;

/**
 * The standings this node knows, each for STANDING_TTL_MS. A `chat_member` update about an owner
 * replaces the entry at once (`learn`) and tells the other nodes to forget theirs (`announce`, the
 * change bus), so a demotion takes effect everywhere without waiting for the minute to pass; a
 * refusal is remembered like a grant, so a refused person does not make Telegram be asked on
 * every post. Failures to ask are never remembered.
 */
export class StandingCache {
  private entries = new Map<string, { standing: Standing; at: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly announce: (key: string) => void = () => {},
    readonly ttlMs = STANDING_TTL_MS,
  ) {}

  static key(chatId: string, personId: number): string {
    return `${chatId}:${personId}`;
  }

  /** The standing still fresh, if any. */
  get(chatId: string, personId: number): Standing | undefined {
    const key = StandingCache.key(chatId, personId);
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (this.clock.now().getTime() - hit.at >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.standing;
  }

  /** Keeps what Telegram answered. */
  remember(chatId: string, personId: number, standing: Standing): void {
    const key = StandingCache.key(chatId, personId);
    this.entries.delete(key);
    this.entries.set(key, { standing, at: this.clock.now().getTime() });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  /** A change Telegram reported: kept here, and every other node drops its entry and asks again. */
  learn(chatId: string, personId: number, standing: Standing): void {
    this.remember(chatId, personId, standing);
    this.announce(StandingCache.key(chatId, personId));
  }

  /** Drops one entry (`chatId:personId`, as announced). */
  forget(key: string): void {
    this.entries.delete(key);
  }

  drop(): void {
    this.entries.clear();
  }
}
