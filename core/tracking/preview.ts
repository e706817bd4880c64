/**
 * The live preview of a tracker's settings: the last posts this node matched against (kept in
 * memory, RECENT_POSTS of them, in the order they came), matched again with the tracker as it is
 * now (keyword, syntax, word forms, minus words; the source filters are not applied). Private
 * chats count only for the accounts that own them, as for matching itself.
 */
import type { Deps } from "../deps";
import { excerpt, TrackerIndex } from "./matcher";
import { privateChatOwners } from "../channels/ownership";
import type { TrackerRow } from "./trackers";

const RECENT_POSTS = 100;

export interface RecentPost {
  chatId: string;
  title: string | null;
  username: string | null;
  text: string;
  forwarded: boolean;
}

/** The posts most recently ingested, newest last; a ring of RECENT_POSTS. */
export class RecentPosts {
  private posts: RecentPost[] = [];
  add(post: RecentPost): void {
    this.posts.push(post);
    if (this.posts.length > RECENT_POSTS) this.posts.shift();
  }
  list(): readonly RecentPost[] {
    return this.posts;
  }
}

export interface Preview {
  /** how many recent posts the tracker could see */
  of: number;
  /** the ones it would have matched, newest first: source and snippet */
  matched: { source: string; snippet: string; matchedKeyword: string }[];
}

/** Which of the recent posts `tracker` (as it is now, enabled or not) would have matched. */
export async function previewTracker(
  deps: Pick<Deps, "asyncDb" | "trackerIndex" | "telegram" | "chatStandings" | "log">,
  tracker: TrackerRow,
): Promise<Preview> {
  const index = new TrackerIndex([tracker]);
  const owners = new Map<string, boolean>();
  const visible: RecentPost[] = [];
  for (const post of deps.trackerIndex.recent.list()) {
    if (post.forwarded && tracker.skipReposts) continue;
    if (!post.username) {
      if (!owners.has(post.chatId)) owners.set(post.chatId, (await privateChatOwners(deps, post.chatId)).has(tracker.userId));
      if (!owners.get(post.chatId)) continue;
    }
    visible.push(post);
  }
  const matched: Preview["matched"] = [];
  for (const post of [...visible].reverse()) {
    const { text, hits } = index.match(post.text);
    if (!hits[0]) continue;
    const { snippet, matchedKeyword } = excerpt(text, hits[0].start, hits[0].end);
    matched.push({ source: post.title ?? (post.username ? `@${post.username}` : "a chat"), snippet, matchedKeyword });
  }
  return { of: visible.length, matched };
}
