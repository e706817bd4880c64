/**
 * The live preview of a tracker's settings: the last posts this node matched against (kept in
 * memory, RECENT_POSTS of them, in the order they came), matched again with the tracker as it is
 * now (keyword, syntax, word forms, minus words; the source filters are not applied). Private
 * chats count only for the accounts that own them, as for matching itself. The matching runs in the
 * matcher's thread, within a budget of work for the whole preview (preview-match.ts): posts it could
 * not afford are counted as skipped.
 */
import type { Deps } from "../deps";
import { privateChatOwners } from "../channels/ownership";
import type { TrackerRow } from "./trackers";

const RECENT_POSTS = 100;

export interface RecentPost {
  chatId: string;
  /** the post's message in its chat: an edit replaces the post it edits */
  messageId?: number;
  title: string | null;
  username: string | null;
  text: string;
  forwarded: boolean;
}

/** The posts most recently ingested, newest last; a ring of RECENT_POSTS. */
export class RecentPosts {
  private posts: RecentPost[] = [];
  /** A post; an edit of one already here (same chat and message) takes its place, so a post counts once. */
  add(post: RecentPost): void {
    if (post.messageId !== undefined) {
      const i = this.posts.findIndex((p) => p.chatId === post.chatId && p.messageId === post.messageId);
      if (i >= 0) {
        this.posts[i] = post;
        return;
      }
    }
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
  /** posts not checked: this tracker would have cost more work on them than the preview may spend */
  skipped: number;
}

/** Which of the recent posts `tracker` (as it is now, enabled or not) would have matched. */
export async function previewTracker(
  deps: Pick<Deps, "asyncDb" | "trackerIndex" | "telegram" | "chatStandings" | "log">,
  tracker: TrackerRow,
): Promise<Preview> {
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
  const newest = [...visible].reverse();
  const found = await deps.trackerIndex.preview(
    tracker,
    newest.map((p) => p.text),
  );
  const matched: Preview["matched"] = [];
  newest.forEach((post, i) => {
    const hit = found.matched[i];
    if (hit) matched.push({ source: post.title ?? (post.username ? `@${post.username}` : "a chat"), ...hit });
  });
  return { of: visible.length, matched, skipped: found.skipped };
}
