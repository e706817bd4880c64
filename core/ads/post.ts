/**
 * An ad post in, an ad post out, for one placement: every link of a Telegram post (a URL in the
 * text, a text link, a URL button) is replaced by a new tracking link bound to the placement, and
 * every invite link or `t.me/<username>` link of one of the user's own channels by a new invite link
 * of that channel, bound to the placement and behind no short link (so each placement's joins are its
 * own). The post comes back with the same text, formatting and buttons, ready to send to the channel
 * that runs the ad. The user's own short links stay as they are; anything that cannot be a target is
 * left alone and reported.
 */
import { inArray } from "drizzle-orm";
import type { InlineKeyboardButton, InlineKeyboardMarkup, MessageEntity } from "grammy/types";
import type { Deps } from "../deps";
import type { UserRow } from "../accounts/users";
import { AppError } from "../errors";
import { assertWithinLimit } from "../accounts/plans";
import { countLinks, createLink, deleteLink } from "../links/links";
import { isServiceUrl } from "../links/own-hosts";
import { urlProblem } from "../links/validate";
import { listChannels } from "../channels/channels";
import type { ChannelRow } from "../channels/ownership";
import { createInvite, revokeInvite } from "../channels/invites";
import { inviteHash, primaryLinks } from "./primary-links";

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
  /** one new invite per own channel the post links to, in the order the post shows them */
  invites: { id: number; channelId: number; name: string; inviteLink: string }[];
  /** URLs left as they were, with the reason */
  skipped: { url: string; reason: string }[];
}

/** A post checked and sorted out before anything is made: which links get a tracking link, which an invite. */
export interface PostPlan {
  found: FoundLink[];
  /** links that become tracking links */
  usable: FoundLink[];
  /** links to the user's own channels: each channel's links become one new invite */
  channels: { channel: ChannelRow; links: FoundLink[] }[];
  skipped: TrackedPost["skipped"];
}
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

const TELEGRAM_HOSTS = new Set(["t.me", "www.t.me", "telegram.me", "www.telegram.me", "telegram.dog"]);
/** Telegram's limit on an invite link's name. */
const INVITE_NAME_MAX = 32;

/** What a Telegram link names: an invite (`+hash`, `joinchat/hash`, both spellings) or a chat by username. */
function telegramTarget(url: string): { invite: string[] } | { username: string } | null {
  if (!URL.canParse(url)) return null;
  const u = new URL(url);
  if (!TELEGRAM_HOSTS.has(u.hostname.toLowerCase())) return null;
  const parts = u.pathname.split("/").filter(Boolean);
  const hash = inviteHash(url);
  if (hash) return { invite: [`https://t.me/+${hash}`, `https://t.me/joinchat/${hash}`] };
  if (parts.length === 1 && /^[A-Za-z][A-Za-z0-9_]{3,31}$/.test(parts[0]!)) return { username: parts[0]!.toLowerCase() };
  return null;
}

/**
 * The user's channel each link points to, by URL: its username, an invite link the service made, or
 * its primary invite link. Another invite link made in Telegram itself is not known (the Bot API
 * names no chat for a link it did not make): it is tracked as a plain link.
 */
async function ownChannelsOf(deps: Deps, userId: number, found: FoundLink[]): Promise<Map<string, ChannelRow>> {
  const targets = found.map((f) => [f, telegramTarget(f.url)] as const).filter(([, t]) => t !== null);
  const out = new Map<string, ChannelRow>();
  if (!targets.length) return out;
  const channels = (await listChannels(deps, userId)).filter((c) => c.botIsAdmin);
  const byChat = new Map(channels.map((c) => [c.chatId, c]));
  const byName = new Map(channels.filter((c) => c.username).map((c) => [c.username!.toLowerCase(), c]));
  const spellings = targets.flatMap(([, t]) => ("invite" in t! ? t.invite : []));
  const { channelInvites } = deps.asyncDb.tables;
  const inviteChats = new Map(
    spellings.length
      ? (
          await deps.asyncDb
            .select({ link: channelInvites.inviteLink, chatId: channelInvites.chatId })
            .from(channelInvites)
            .where(inArray(channelInvites.inviteLink, spellings))
        ).map((r) => [r.link, r.chatId])
      : [],
  );
  for (const [f, t] of targets) {
    const channel =
      "username" in t! ? byName.get(t.username) : t!.invite.map((s) => byChat.get(inviteChats.get(s) ?? "")).find((c) => c !== undefined);
    if (channel) out.set(f.url, channel);
  }
  // an invite link the service did not make: a channel's primary link (Telegram tells which it is)
  const unknown = targets.filter(([f, t]) => "invite" in t! && !out.has(f.url));
  if (unknown.length) {
    const primary = await primaryLinks(deps, channels);
    for (const [f] of unknown) {
      const channel = primary.get(inviteHash(f.url) ?? "");
      if (channel) out.set(f.url, channel);
    }
  }
  return out;
}

/**
 * Checks a post before its placement is made: its links sorted into tracking links and own
 * channels, the rest reported. A post without links, or without any that can be tracked, is a 400;
 * more new links than the plan has room for is a 403 (all or nothing: a post is not sent out with
 * half its links tracked).
 */
export async function planPost(deps: Deps, user: UserRow, post: Post): Promise<PostPlan> {
  const found = linksOf(post);
  if (!found.length) throw new AppError(400, "no_links", "The post has no links to track");
  if (found.length > POST_LINKS_MAX) throw new AppError(400, "too_many_links", `A post can have at most ${POST_LINKS_MAX} different links`);
  const own = await ownChannelsOf(deps, user.id, found);
  const skipped: TrackedPost["skipped"] = [];
  const usable: FoundLink[] = [];
  const channels = new Map<number, { channel: ChannelRow; links: FoundLink[] }>();
  for (const link of found) {
    const channel = own.get(link.url);
    if (channel) {
      const known = channels.get(channel.id);
      if (known) known.links.push(link);
      else channels.set(channel.id, { channel, links: [link] });
    } else if (URL.canParse(link.url) && (await isServiceUrl(deps, new URL(link.url))))
      skipped.push({ url: link.written, reason: "already a short link of this service" });
    else {
      const problem = await urlProblem(deps, link.url);
      if (problem) skipped.push({ url: link.written, reason: `cannot be a target: it ${problem}` });
      else usable.push(link);
    }
  }
  if (!usable.length && !channels.size)
    throw new AppError(
      400,
      "no_links",
      `None of the post's links can be tracked: ${skipped.map((k) => `${k.url} (${k.reason})`).join("; ")}`,
    );
  assertWithinLimit(deps, user, "links", await countLinks(deps, user.id), usable.length);
  return { found, usable, channels: [...channels.values()], skipped };
}

/**
 * A new invite link of each channel for one placement, named after it (join requests in public
 * channels: Telegram names no link when someone joins by the username), bound to it. If Telegram
 * refuses one, those already made are revoked again and the refusal is passed on.
 */
export async function placementInvites(
  deps: Deps,
  userId: number,
  channels: ChannelRow[],
  placement: { id: number; name: string },
): Promise<TrackedPost["invites"]> {
  const made: TrackedPost["invites"] = [];
  const { placementInvites: bound } = deps.asyncDb.tables;
  try {
    for (const channel of channels) {
      const invite = await createInvite(deps, userId, channel.id, {
        name: placement.name.slice(0, INVITE_NAME_MAX),
        join_request: channel.username !== null,
      });
      made.push({ id: invite.id, channelId: channel.id, name: invite.name, inviteLink: invite.inviteLink });
      await deps.asyncDb.insert(bound).values({ inviteId: invite.id, placementId: placement.id });
    }
  } catch (e) {
    for (const invite of made) await revokeInvite(deps, userId, invite.id).catch(() => undefined);
    throw e;
  }
  return made;
}

/**
 * Makes the tracking copy of a planned post for one placement: a new invite per own channel (see
 * placementInvites), a new link per other URL titled `<placement> · <host>`, each bound to the
 * placement, then the rewritten post. If anything fails partway (a link refused once the plan is
 * full, say), the invites made are revoked in Telegram and the links made deleted (they no longer
 * count against the plan), and the failure is passed on.
 */
export async function trackPost(
  deps: Deps,
  user: UserRow,
  plan: PostPlan,
  post: Post,
  placement: { id: number; name: string },
): Promise<TrackedPost> {
  // placementInvites revokes its own invites if Telegram refuses one
  const invites = await placementInvites(
    deps,
    user.id,
    plan.channels.map((c) => c.channel),
    placement,
  );
  const { placementLinks } = deps.asyncDb.tables;
  const links: TrackedPost["links"] = [];
  try {
    for (const link of plan.usable) {
      const made = await createLink(deps, user, { url: link.url, title: linkTitle(placement.name, link.url) });
      links.push({ url: link.url, trackingUrl: made.trackingUrl, code: made.code, id: made.id });
      await deps.asyncDb.insert(placementLinks).values({ linkId: made.id, placementId: placement.id });
    }
  } catch (e) {
    for (const invite of invites) await revokeInvite(deps, user.id, invite.id).catch(() => undefined);
    for (const link of links) await deleteLink(deps, user.id, link.id).catch(() => undefined);
    throw e;
  }
  const replacement = new Map(links.map((l) => [l.url, l.trackingUrl]));
  plan.channels.forEach((c, i) => {
    for (const link of c.links) replacement.set(link.url, invites[i]!.inviteLink);
  });
  return { post: rewritePost(post, plan.found, replacement), links, invites, skipped: plan.skipped };
}

/** A link's title cannot pass 200 characters (a long host is cut). */
const LINK_TITLE_MAX = 200;
/** `<placement> · <host>`, within a link title's limit. */
function linkTitle(placement: string, url: string): string {
  return `${placement} · ${new URL(url).hostname}`.slice(0, LINK_TITLE_MAX);
}
