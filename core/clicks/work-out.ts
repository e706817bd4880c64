import type { ClickRow, LinkRow } from "../../db/schema";
import { parsedUa, type GeoLookup } from "./enrich";
import { ClickKinds, type StoredClick } from "./listeners";
import { memoize } from "../memo";
import { clickIdAfter, clickIdHead, clickParamsOfQuery, paramsOf } from "./click-id";
import { NUMS, REFS, packedLength, type PackedClicks } from "./packed";

/**
 * The work-out of a batch, shared by the SQLite writer (core/clicks/writer.ts) and the PostgreSQL
 * writer (core/clicks/writer-pg.ts): what each click becomes before it is stored, the same on every
 * database.
 */

const UNIQUE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A visitor is IP + User-Agent; only a 64-bit hash of the pair is kept, to decide uniqueness. */
const visitorHashOf = memoize((pair: string) => Bun.hash(pair).toString(16), 20000);

/** Stored referers and user agents are cut to these lengths. */
const MAX_REFERER = 2048;
const MAX_USER_AGENT = 1024;

/** How the batch's work-out asks its database (synchronously: from statements, or from rows read beforehand). */
export interface BatchLookups {
  /** when the visitor `hash` last made a unique click on the link (ms), or -Infinity */
  lastUnique(linkId: number, hash: string): number;
  /** the visitor's click at `at` is unique: remember it */
  unique(linkId: number, hash: string, at: number): void;
  /** the id of a user agent's row (cut to its stored length) */
  uaId(ua: string): number;
}

/** A batch worked out: the clicks to store (with their links; grouped by link, groupedByLink) and each link's counter increments. */
export interface WorkedBatch {
  kept: StoredClick[];
  counts: Map<number, { total: number; unique: number; bots: number }>;
}

/**
 * The visitor of click `i` that decides its uniqueness: a keyed hash made on the request (PRIVACY_IP
 * truncate/none) as it is, otherwise the hash of address and agent, worked out once per pair of
 * references (a missing and an empty address are one visitor, as in click_visitors). null for bots.
 */
export function visitorOfClick(batch: PackedClicks, i: number, hashes: Map<number, string>): string | null {
  const { nums, refs, strings } = batch;
  if (nums[i * NUMS + 2] === 1) return null;
  const visitorRef = refs[i * REFS + 4]!;
  if (visitorRef) return strings[visitorRef - 1]!;
  const ipRef = refs[i * REFS]!;
  const uaRef = refs[i * REFS + 1]!;
  const key = ipRef * (strings.length + 1) + uaRef;
  let hash = hashes.get(key);
  if (hash === undefined) {
    const str = (ref: number) => (ref === 0 ? "" : strings[ref - 1]!);
    hashes.set(key, (hash = visitorHashOf(`${str(ipRef)}\n${str(uaRef)}`)));
  }
  return hash;
}

/** The user agent of click `i` as stored (cut to MAX_USER_AGENT), or null. */
export function storedUaOf(batch: PackedClicks, i: number): string | null {
  const ref = batch.refs[i * REFS + 1]!;
  return ref === 0 ? null : batch.strings[ref - 1]!.slice(0, MAX_USER_AGENT);
}

/**
 * The id of a batch's click `i` for its link (packed.ts's clickIdAt), each head (`<link>_<prefix>`)
 * made once per prefix and link; null for a click recorded without one.
 */
function clickIdsOf(batch: PackedClicks): (i: number, linkId: number) => string | null {
  const { nums, refs, strings } = batch;
  /** heads by prefix reference, then by link */
  const heads: Map<number, string>[] = [];
  return (i, linkId) => {
    const ref = refs[i * REFS + 6]!;
    if (ref === 0) return null;
    const n = nums[i * NUMS + 6]!;
    if (n < 0) return strings[ref - 1]!;
    const byLink = (heads[ref] ??= new Map());
    let head = byLink.get(linkId);
    if (head === undefined) byLink.set(linkId, (head = clickIdHead(linkId, strings[ref - 1]!)));
    return clickIdAfter(head, n);
  };
}

/**
 * Whether a human visitor's click on a link at `at` is unique: their first on it in UNIQUE_WINDOW_MS,
 * by the clicks before it in the batch, else by the database (`lookups`), which then remembers it.
 */
function uniqueness(lookups: BatchLookups): (linkId: number, hash: string, at: number) => boolean {
  /** the last unique click by link, then by visitor hash */
  const lastUnique = new Map<number, Map<string, number>>();
  return (linkId, hash, at) => {
    let byVisitor = lastUnique.get(linkId);
    if (!byVisitor) lastUnique.set(linkId, (byVisitor = new Map()));
    let last = byVisitor.get(hash);
    if (last === undefined) last = lookups.lastUnique(linkId, hash);
    const unique = at - last >= UNIQUE_WINDOW_MS;
    if (unique) {
      last = at;
      lookups.unique(linkId, hash, at);
    }
    byVisitor.set(hash, last);
    return unique;
  };
}

/**
 * Works a batch out, the same on every database: the clicks of links that still exist (`alive`),
 * each with its geo, device, user-agent id and uniqueness (through `lookups`), and the counters per
 * link. Whatever follows from a string (geo of an address, device and id of a user agent, the
 * visitor hash of an address and agent) is worked out once per distinct string of the batch, and
 * the per-click work is array and map lookups by number. Each link in `alive` is advanced to the
 * counters it has once the batch is stored (the listeners see each link as stored now).
 */
export function workOut(batch: PackedClicks, alive: Map<number, LinkRow>, geoOf: GeoLookup, lookups: BatchLookups): WorkedBatch {
  const { nums, refs, strings } = batch;
  const n = packedLength(batch);
  const counts = new Map<number, { total: number; unique: number; bots: number }>();
  const kept: StoredClick[] = [];
  if (!n) return { kept, counts };
  const str = (ref: number) => (ref === 0 ? null : strings[ref - 1]!);
  /** pair keys below are ref × width + ref: unique, and well inside 2^53 for any batch that fits in memory */
  const width = strings.length + 1;

  /** `fact` of the string behind a reference, worked out on its first use in this batch */
  const perRef = <T>(fact: (s: string | null) => T) => {
    const known: T[] = [];
    return (ref: number): T => (known[ref] ??= fact(str(ref)));
  };
  const kinds = new ClickKinds();
  const geoOfRef = perRef((ip) => {
    const g = geoOf(ip);
    return { ...g, cls: kinds.country(g.country) };
  });
  const agentOfRef = perRef((ua) => ({ ...parsedUa(ua ?? ""), id: ua === null ? null : lookups.uaId(ua.slice(0, MAX_USER_AGENT)) }));
  const refererOf = perRef((referer) => referer?.slice(0, MAX_REFERER) ?? null);
  const paramsOfRef = perRef(paramsOf);
  /** the sub parameters of a raw query (the redirect keeps the query as it came) */
  const paramsOfQueryRef = perRef((query) => paramsOf(query && clickParamsOfQuery(query)));
  /** geo looked up on the request (PRIVACY_IP truncate/none: the full address was not kept) */
  const givenGeoOfRef = perRef((text) => {
    const [country, city] = (text ?? "\n").split("\n") as [string, string];
    const g = { country: country || null, city: city || null };
    return { ...g, cls: kinds.country(g.country) };
  });
  /** the agent class of a kind, by agent, bot name and is-bot references */
  const agentKinds = new Map<number, number>();

  const clickIdOfClick = clickIdsOf(batch);

  const isUniqueAt = uniqueness(lookups);
  const hashes = new Map<number, string>();

  for (let i = 0; i < n; i++) {
    const linkId = nums[i * NUMS]!;
    const link = alive.get(linkId);
    if (!link) continue;
    const at = nums[i * NUMS + 1]!;
    const isBot = nums[i * NUMS + 2] === 1;
    const ipRef = refs[i * REFS]!;
    const uaRef = refs[i * REFS + 1]!;
    const botRef = refs[i * REFS + 3]!;
    const geoRef = refs[i * REFS + 5]!;
    const geo = geoRef ? givenGeoOfRef(geoRef) : geoOfRef(ipRef);
    const agent = agentOfRef(uaRef);
    const device = isBot ? "bot" : agent.device;
    const botName = str(botRef);
    const paramsRef = refs[i * REFS + 7]!;
    const params = paramsRef ? paramsOfRef(paramsRef) : paramsOfQueryRef(refs[i * REFS + 8]!);

    const hash = visitorOfClick(batch, i, hashes);
    const isUnique = hash !== null && isUniqueAt(linkId, hash, at);

    const agentKey = (uaRef * width + botRef) * 2 + (isBot ? 1 : 0);
    let agentKind = agentKinds.get(agentKey);
    if (agentKind === undefined) agentKinds.set(agentKey, (agentKind = kinds.agent(device, agent.browser, agent.os, isBot, botName)));

    const click: ClickRow = {
      id: 0, // set when inserted
      linkId,
      clickedAt: new Date(at),
      ip: str(ipRef),
      country: geo.country,
      city: geo.city,
      device,
      browser: agent.browser,
      os: agent.os,
      referer: refererOf(refs[i * REFS + 2]!),
      uaId: agent.id,
      isBot,
      botName,
      isUnique,
      rule: nums[i * NUMS + 3]! < 0 ? null : nums[i * NUMS + 3]!,
      variant: nums[i * NUMS + 4]! < 0 ? null : nums[i * NUMS + 4]!,
      clickId: clickIdOfClick(i, linkId),
      sub1: params.sub1,
      sub2: params.sub2,
      sub3: params.sub3,
      sub4: params.sub4,
      sub5: params.sub5,
      fbclid: params.fbclid,
    };
    kept.push({ click, link, kind: ClickKinds.of(geo.cls, agentKind) });
    let c = counts.get(linkId);
    if (!c) counts.set(linkId, (c = { total: 0, unique: 0, bots: 0 }));
    c.total++;
    if (isUnique) c.unique++;
    if (isBot) c.bots++;
  }
  for (const [id, c] of counts) {
    const link = alive.get(id)!;
    link.totalClicks += c.total;
    link.uniqueClicks += c.unique;
    link.botClicks += c.bots;
  }
  return { kept: groupedByLink(kept, counts.size), counts };
}

/**
 * `kept` grouped by link: each link's clicks in the order they came, the links in the order they
 * first came. The clicks table's indexes by link and time and by click id (which starts with the
 * link) have an insertion point per link, and the clicks of a batch taken in the order they came,
 * several links interleaved, moved between those points at every row: grouped, each point takes its
 * clicks in a run. The SQLite writer took 4.8–4.9 µs per click so with a batch spread over 20 links,
 * against 7.0 (bench/click-writer.ts); one link's clicks keep their order, and so their ids the
 * order of their times.
 */
function groupedByLink(kept: StoredClick[], links: number): StoredClick[] {
  if (links < 2) return kept;
  const groups = new Map<number, StoredClick[]>();
  for (const k of kept) {
    const group = groups.get(k.click.linkId);
    if (group) group.push(k);
    else groups.set(k.click.linkId, [k]);
  }
  const out: StoredClick[] = [];
  for (const group of groups.values()) for (const k of group) out.push(k);
  return out;
}

/** The distinct link ids of a batch. */
export function linkIdsOf(nums: Float64Array): number[] {
  const ids = new Set<number>();
  for (let i = 0; i < nums.length; i += NUMS) ids.add(nums[i]!);
  return [...ids];
}
