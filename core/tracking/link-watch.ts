/**
 * watch_links: which of its owners' short links and invite links a post carries. A link counts in the
 * post's text (with or without a scheme), behind a `text_link` entity, or on a URL button. A short
 * link is `<SHORT_URL or BASE_URL>/<code>` or `<verified custom domain>/<code>` (the domain's owner's
 * link only); an invite link is `t.me/+<hash>` or `t.me/joinchat/<hash>` of a row in channel_invites.
 * The link's owner is whoever made it: a stranger's link never matches another account's trackers.
 */
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Deps } from "../deps";
import { excerpt, type MatchExcerpt } from "./matcher";
import { ownedLink } from "../links/links";
import { ownedInvite } from "../channels/invites";

/** A URL a post carries outside its visible text: a `text_link` entity (its position in the text) or a button. */
export interface CarriedUrl {
  url: string;
  /** UTF-16 positions of the linked words in the post's text (text links); absent for buttons */
  start?: number;
  end?: number;
}

/** A link of the service found in a post, with the account that owns it. */
export interface FoundLink {
  userId: number;
  linkId: number | null;
  inviteId: number | null;
  /** what the match shows: the link as written in the text, or the URL behind the words or the button */
  shown: MatchExcerpt;
}

// a URL with a scheme, or a bare host name with a dot (`sho.rt/abc`), and its path
const URL_IN_TEXT =
  /(?:https?:\/\/[^\s/?#<>"]+|(?<![\p{L}\p{N}@.-])(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}(?::\d{1,5})?)(?:[/?#][^\s<>"]*)?/giu;
// punctuation that ends a sentence rather than the URL
const TRAILING = /[.,;:!?'")\]»…]+$/u;
const TELEGRAM_HOSTS = new Set(["t.me", "www.t.me", "telegram.me", "www.telegram.me", "telegram.dog"]);

interface Candidate {
  url: URL;
  written: string;
  start?: number;
  end?: number;
}

function parse(raw: string): URL | null {
  try {
    return new URL(/^https?:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    return null;
  }
}

/** The URLs of a post in the order a reader meets them: in the text, then behind words, then on buttons. */
function urlsOfPost(text: string, carried: readonly CarriedUrl[] = []): Candidate[] {
  const out: Candidate[] = [];
  for (const m of text.matchAll(URL_IN_TEXT)) {
    const written = m[0].replace(TRAILING, "");
    const url = parse(written);
    if (url) out.push({ url, written, start: m.index, end: m.index + written.length });
  }
  const behind = carried.filter((c) => c.start !== undefined).sort((a, b) => a.start! - b.start!);
  for (const c of [...behind, ...carried.filter((c) => c.start === undefined)]) {
    const url = parse(c.url);
    if (url) out.push({ url, written: c.url, start: c.start, end: c.end });
  }
  return out;
}

const segments = (path: string) => {
  try {
    return path.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return null; // a malformed %-escape names nothing
  }
};

/** `t.me/+hash` and `t.me/joinchat/hash`: the two spellings Telegram uses for one invite. */
function inviteSpellings(url: URL): string[] | null {
  if (!TELEGRAM_HOSTS.has(url.hostname.toLowerCase())) return null;
  const parts = segments(url.pathname);
  const hash =
    parts?.length === 1 && parts[0]!.startsWith("+")
      ? parts[0]!.slice(1)
      : parts?.length === 2 && parts[0] === "joinchat"
        ? parts[1]!
        : null;
  return hash ? [`https://t.me/+${hash}`, `https://t.me/joinchat/${hash}`] : null;
}

/**
 * The service's links and invite links `text` and `carried` hold, owned by one of `owners` (the
 * accounts with watch_links trackers), in reading order, each link once. At most three statements
 * (custom domains, links, invites), and none when the post names no candidate.
 */
export async function findOwnLinks(
  deps: Pick<Deps, "asyncDb" | "config">,
  owners: ReadonlySet<number>,
  text: string,
  carried: readonly CarriedUrl[] = [],
): Promise<FoundLink[]> {
  const candidates = urlsOfPost(text, carried);
  if (!candidates.length) return [];
  const own = [deps.config.shortUrl, deps.config.baseUrl].map((u) => new URL(u));
  // per candidate: the code it names on one of our hosts, the custom domain it would need, or the invite spellings
  const codes: { c: Candidate; code: string; domain: string | null }[] = [];
  const invites: { c: Candidate; spellings: string[] }[] = [];
  const foreignHosts = new Set<string>();
  for (const c of candidates) {
    const spellings = inviteSpellings(c.url);
    if (spellings) {
      invites.push({ c, spellings });
      continue;
    }
    const base = own.find((o) => o.host === c.url.host && c.url.pathname.startsWith(o.pathname.replace(/\/?$/, "/")));
    const parts = segments(base ? c.url.pathname.slice(base.pathname.replace(/\/?$/, "/").length - 1) : c.url.pathname);
    if (parts?.length !== 1) continue;
    const hostname = c.url.hostname.replace(/\.$/, "");
    if (base) codes.push({ c, code: parts[0]!, domain: null });
    else if (!c.url.port) {
      codes.push({ c, code: parts[0]!, domain: hostname });
      foreignHosts.add(hostname);
    }
  }
  const db = deps.asyncDb;
  const { links, domains, channelInvites } = db.tables;
  const domainOwners = new Map<string, number>();
  if (foreignHosts.size)
    for (const d of await db
      .select({ hostname: domains.hostname, userId: domains.userId })
      .from(domains)
      .where(and(inArray(domains.hostname, [...foreignHosts]), isNotNull(domains.verifiedAt))))
      domainOwners.set(d.hostname, d.userId);
  const wanted = codes.filter((x) => x.domain === null || domainOwners.has(x.domain));
  const linkRows = wanted.length
    ? await db
        .select({ id: links.id, userId: links.userId, code: links.code })
        .from(links)
        .where(inArray(links.code, [...new Set(wanted.map((x) => x.code))]))
    : [];
  const byCode = new Map(linkRows.map((l) => [l.code, l]));
  const inviteRows = invites.length
    ? await db
        .select({ id: channelInvites.id, userId: channelInvites.userId, inviteLink: channelInvites.inviteLink })
        .from(channelInvites)
        .where(
          inArray(
            channelInvites.inviteLink,
            invites.flatMap((x) => x.spellings),
          ),
        )
    : [];
  const byInvite = new Map(inviteRows.map((i) => [i.inviteLink, i]));

  const found: (FoundLink & { at: number })[] = [];
  const seen = new Set<string>();
  const show = (c: Candidate): MatchExcerpt =>
    c.start !== undefined
      ? { ...excerpt(text, c.start, c.end!), matchedKeyword: c.written }
      : { snippet: excerpt(text, 0, 0).snippet, matchedKeyword: c.written };
  for (const x of wanted) {
    const link = byCode.get(x.code);
    // on a custom domain, only the domain owner's links are served there
    if (!link || !owners.has(link.userId) || (x.domain !== null && domainOwners.get(x.domain) !== link.userId) || seen.has(`l${link.id}`))
      continue;
    seen.add(`l${link.id}`);
    found.push({ userId: link.userId, linkId: link.id, inviteId: null, shown: show(x.c), at: candidates.indexOf(x.c) });
  }
  for (const x of invites) {
    const invite = x.spellings.map((s) => byInvite.get(s)).find(Boolean);
    if (!invite || !owners.has(invite.userId) || seen.has(`i${invite.id}`)) continue;
    seen.add(`i${invite.id}`);
    found.push({ userId: invite.userId, linkId: null, inviteId: invite.id, shown: show(x.c), at: candidates.indexOf(x.c) });
  }
  return found.sort((a, b) => a.at - b.at).map(({ at: _, ...f }) => f);
}

/** One place a link was seen: a post (newest first), with where it is. */
interface Placement {
  source_chat_id: string;
  source_title: string | null;
  source_username: string | null;
  source_message_id: number;
  post_url: string | null;
  detected_at: string;
}

/** LinkPlacements: the posts a link was seen in by the owner's watch_links trackers, and in how many chats. */
export interface LinkPlacements {
  channels: number;
  posts: number;
  items: Placement[];
}

/**
 * Where the user's link (or invite link) was posted: the posts their watch_links trackers matched with
 * it, one row per post (several trackers matching one post are one placement), newest first, up to
 * `limit`, with the number of posts and of distinct chats.
 */
export async function placementsOf(
  deps: Pick<Deps, "asyncDb">,
  userId: number,
  of: { linkId: number } | { inviteId: number },
  limit = 50,
): Promise<LinkPlacements> {
  const { trackerMatches, trackers } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .select({
      chatId: trackerMatches.sourceChatId,
      messageId: trackerMatches.sourceMessageId,
      title: trackerMatches.sourceTitle,
      username: trackerMatches.sourceUsername,
      postUrl: trackerMatches.postUrl,
      detectedAt: trackerMatches.detectedAt,
    })
    .from(trackerMatches)
    .innerJoin(trackers, eq(trackers.id, trackerMatches.trackerId))
    .where(
      and(eq(trackers.userId, userId), "linkId" in of ? eq(trackerMatches.linkId, of.linkId) : eq(trackerMatches.inviteId, of.inviteId)),
    );
  // one row per post, the first detection; then newest first
  const posts = new Map<string, (typeof rows)[number]>();
  for (const r of rows) {
    const key = `${r.chatId}/${r.messageId}`;
    const known = posts.get(key);
    if (!known || r.detectedAt < known.detectedAt) posts.set(key, r);
  }
  const list = [...posts.values()].sort((a, b) => b.detectedAt.getTime() - a.detectedAt.getTime() || b.messageId - a.messageId);
  return {
    channels: new Set(list.map((r) => r.chatId)).size,
    posts: list.length,
    items: list.slice(0, limit).map((r) => ({
      source_chat_id: r.chatId,
      source_title: r.title,
      source_username: r.username,
      source_message_id: r.messageId,
      post_url: r.postUrl,
      detected_at: r.detectedAt.toISOString(),
    })),
  };
}

/** GET /api/links/:id/placements: the placements of one of the user's links (404 for another's). */
export async function linkPlacements(deps: Pick<Deps, "asyncDb">, userId: number, linkId: number): Promise<LinkPlacements> {
  await ownedLink(deps, userId, linkId);
  return placementsOf(deps, userId, { linkId });
}

/** GET /api/invites/:id/placements: the placements of one of the user's invite links (404 for another's). */
export async function invitePlacements(deps: Pick<Deps, "asyncDb">, userId: number, inviteId: number): Promise<LinkPlacements> {
  await ownedInvite(deps, userId, inviteId);
  return placementsOf(deps, userId, { inviteId });
}
