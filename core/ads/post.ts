/**
 * An ad post in, an ad post out: every link of a Telegram post (a URL in the text, a text link, a
 * URL button) is replaced by a new tracking link for one placement, and the post comes back with
 * the same text and formatting, ready to send to the channel that runs the ad. The user's own short
 * links stay as they are (they already count); anything that cannot be a target is left alone and
 * reported.
 */
import type { InlineKeyboardButton, InlineKeyboardMarkup, MessageEntity } from "grammy/types";
import type { Deps } from "../deps";
import type { UserRow } from "../accounts/users";
import { AppError } from "../errors";
import { createTag, listTags } from "../catalog/tags";
import { assertWithinLimit } from "../accounts/plans";
import { countLinks, createLink } from "../links/links";
import { isServiceUrl } from "../links/own-hosts";
import { urlProblem } from "../links/validate";

/** A post as Telegram gives it: the text (or a caption) with its entities, and its buttons. */
export interface Post {
  text: string;
  entities: MessageEntity[];
  buttons?: InlineKeyboardMarkup;
}

/** Where a link of the post sits. */
type Spot = { kind: "text"; entity: number } | { kind: "text_link"; entity: number } | { kind: "button"; row: number; col: number };

export interface FoundLink {
  /** as written in the post */
  written: string;
  /** the absolute URL (https:// added to a bare domain, as Telegram opens it) */
  url: string;
  spots: Spot[];
}

export interface TrackedPost {
  post: Post;
  /** one tracking link per distinct URL, in the order the post shows them */
  links: { url: string; trackingUrl: string; code: string; id: number }[];
  /** URLs left as they were, with the reason */
  skipped: { url: string; reason: string }[];
  /** the placement's tag on the new links */
  tag: { id: number; name: string };
}

export const PLACEMENT_MAX = 50;
/** A post holds at most this many distinct links (Telegram's own limits keep real posts far below). */
const POST_LINKS_MAX = 30;

const absolute = (written: string) => (/^[a-z][a-z0-9+.-]*:/i.test(written) ? written : `https://${written}`);

/** The links of a post in reading order (text first, then buttons), the same URL once with all its spots. */
export function linksOf(post: Post): FoundLink[] {
  const found = new Map<string, FoundLink>();
  const add = (written: string, spot: Spot) => {
    const url = absolute(written.trim());
    const known = found.get(url);
    if (known) known.spots.push(spot);
    else found.set(url, { written, url, spots: [spot] });
  };
  post.entities.forEach((e, i) => {
    if (e.type === "url") add(post.text.slice(e.offset, e.offset + e.length), { kind: "text", entity: i });
    else if (e.type === "text_link") add(e.url, { kind: "text_link", entity: i });
  });
  post.buttons?.inline_keyboard.forEach((row, r) =>
    row.forEach((b, c) => {
      if ("url" in b && b.url) add(b.url, { kind: "button", row: r, col: c });
    }),
  );
  return [...found.values()];
}

/**
 * The post with each found link's spots pointing at its replacement: URL text replaced in the text
 * (later entities shifted by the difference, in UTF-16 units as Telegram counts), text links and
 * buttons given the new URL. Links without a replacement are left as they were.
 */
export function rewritePost(post: Post, found: FoundLink[], replacement: Map<string, string>): Post {
  const entities = post.entities.map((e) => ({ ...e }));
  const buttons = post.buttons ? { inline_keyboard: post.buttons.inline_keyboard.map((row) => row.map((b) => ({ ...b }))) } : undefined;
  const edits: { offset: number; length: number; text: string }[] = [];
  for (const link of found) {
    const to = replacement.get(link.url);
    if (!to) continue;
    for (const spot of link.spots) {
      if (spot.kind === "text") edits.push({ offset: entities[spot.entity]!.offset, length: entities[spot.entity]!.length, text: to });
      else if (spot.kind === "text_link") (entities[spot.entity] as MessageEntity.TextLinkMessageEntity).url = to;
      else (buttons!.inline_keyboard[spot.row]![spot.col] as InlineKeyboardButton.UrlButton).url = to;
    }
  }
  let text = post.text;
  // from the end, so earlier offsets stay true while the text changes
  for (const edit of edits.sort((a, b) => b.offset - a.offset)) {
    const delta = edit.text.length - edit.length;
    text = text.slice(0, edit.offset) + edit.text + text.slice(edit.offset + edit.length);
    for (const e of entities) {
      const end = e.offset + e.length;
      if (e.offset >= edit.offset + edit.length) e.offset += delta;
      // an entity around the URL (bold over the link, say) grows or shrinks with it
      else if (e.offset <= edit.offset && end >= edit.offset + edit.length) e.length += delta;
    }
  }
  return { text, entities, ...(buttons ? { buttons } : {}) };
}

/** The user's tag named `name` (any case), made when missing. */
async function placementTag(deps: Deps, userId: number, name: string): Promise<{ id: number; name: string }> {
  const existing = (await listTags(deps, userId)).find((t) => t.name.toLowerCase() === name.toLowerCase());
  return existing ?? (await createTag(deps, userId, name));
}

/**
 * Makes the tracking copy of a post for one placement: a new link per distinct URL, titled and
 * tagged with the placement (so the ad's clicks sum up under its tag), then the rewritten post.
 * A post without links, or a placement name that is empty or too long, is a 400.
 */
export async function trackPost(deps: Deps, user: UserRow, post: Post, placement: string): Promise<TrackedPost> {
  const name = placement.trim();
  if (!name || name.length > PLACEMENT_MAX)
    throw new AppError(400, "invalid_placement", `The placement name must be 1–${PLACEMENT_MAX} characters`);
  const found = linksOf(post);
  if (!found.length) throw new AppError(400, "no_links", "The post has no links to track");
  if (found.length > POST_LINKS_MAX) throw new AppError(400, "too_many_links", `A post can have at most ${POST_LINKS_MAX} different links`);
  const skipped: TrackedPost["skipped"] = [];
  const usable: FoundLink[] = [];
  for (const link of found) {
    if (URL.canParse(link.url) && (await isServiceUrl(deps, new URL(link.url))))
      skipped.push({ url: link.written, reason: "already a short link of this service" });
    else {
      const problem = await urlProblem(deps, link.url);
      if (problem) skipped.push({ url: link.written, reason: `cannot be a target: it ${problem}` });
      else usable.push(link);
    }
  }
  if (!usable.length)
    throw new AppError(
      400,
      "no_links",
      `None of the post's links can be tracked: ${skipped.map((k) => `${k.url} (${k.reason})`).join("; ")}`,
    );
  // all or nothing as far as the plan goes: a post is not sent out with half its links tracked
  assertWithinLimit(deps, user, "links", await countLinks(deps, user.id), usable.length);
  const tag = await placementTag(deps, user.id, name);
  const links: TrackedPost["links"] = [];
  for (const link of usable) {
    const made = await createLink(deps, user, { url: link.url, title: name, tagIds: [tag.id] });
    links.push({ url: link.url, trackingUrl: made.trackingUrl, code: made.code, id: made.id });
  }
  const replacement = new Map(links.map((l) => [l.url, l.trackingUrl]));
  return { post: rewritePost(post, found, replacement), links, skipped, tag: { id: tag.id, name: tag.name } };
}
