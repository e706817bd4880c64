import { inArray } from "drizzle-orm";
import type { Deps } from "../deps";
import type { Tables } from "../../db/async";
import { parseRules, parseVariants } from "./routing-input";

/** `SHORT_URL/<code>`, or `<scheme>://<custom domain>/<code>` for a link on a custom domain. */
export function trackingUrlOf(deps: Pick<Deps, "config">, code: string, hostname?: string | null): string {
  if (!hostname) return `${deps.config.shortUrl}/${code}`;
  return `${new URL(deps.config.shortUrl).protocol}//${hostname}/${code}`;
}

type LinkRow = Tables["links"]["$inferSelect"];

function statsOf(link: LinkRow) {
  return { totalClicks: link.totalClicks, uniqueClicks: link.uniqueClicks, botClicks: link.botClicks };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Hostnames of the custom domains these links use, by domain id. */
export async function domainHosts(deps: Pick<Deps, "asyncDb">, rows: LinkRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.map((r) => r.domainId).filter((x): x is number => x !== null))];
  if (!ids.length) return new Map();
  const { domains } = deps.asyncDb.tables;
  return new Map((await deps.asyncDb.select().from(domains).where(inArray(domains.id, ids))).map((d) => [d.id, d.hostname]));
}

/** The custom domain's hostname of one link, or null. */
export async function domainHostOf(deps: Pick<Deps, "asyncDb">, link: LinkRow): Promise<string | null> {
  return (await domainHosts(deps, [link])).get(link.domainId ?? -1) ?? null;
}

/** Tag ids (and pixel ids) of these links, by link id. */
export async function relationsOf(deps: Pick<Deps, "asyncDb">, ids: number[]) {
  const tagIds = new Map<number, number[]>(ids.map((id) => [id, []]));
  const pixelIds = new Map<number, number[]>(ids.map((id) => [id, []]));
  if (ids.length) {
    const { linkTags, linkPixels } = deps.asyncDb.tables;
    for (const r of await deps.asyncDb
      .select()
      .from(linkTags)
      .where(inArray(linkTags.linkId, ids))
      .orderBy(linkTags.linkId, linkTags.tagId))
      tagIds.get(r.linkId)!.push(r.tagId);
    for (const r of await deps.asyncDb
      .select()
      .from(linkPixels)
      .where(inArray(linkPixels.linkId, ids))
      .orderBy(linkPixels.linkId, linkPixels.pixelId))
      pixelIds.get(r.linkId)!.push(r.pixelId);
  }
  return { tagIds, pixelIds };
}

/** The create/edit answer of the spec: {id, code, trackingUrl, original_url, title}. */
export function linkSummary(deps: Pick<Deps, "config">, link: LinkRow, hostname?: string | null) {
  return { id: link.id, code: link.code, trackingUrl: trackingUrlOf(deps, link.code, hostname), original_url: link.url, title: link.title };
}

/** One list item: the spec's fields plus state, tags and creation time. */
export function linkListItem(deps: Pick<Deps, "config">, link: LinkRow, hostname: string | null, tagIds: number[]) {
  return {
    ...linkSummary(deps, link, hostname),
    is_active: link.isActive,
    tagIds,
    created_at: link.createdAt.toISOString(),
    stats: statsOf(link),
  };
}

/** The get answer: every stored field (never the password or its hash), webhook state and counters. */
export async function linkDetails(deps: Pick<Deps, "asyncDb" | "config">, link: LinkRow) {
  const host = await domainHostOf(deps, link);
  const rel = await relationsOf(deps, [link.id]);
  return {
    ...linkSummary(deps, link, host),
    utm_source: link.utmSource,
    utm_medium: link.utmMedium,
    utm_campaign: link.utmCampaign,
    tagIds: rel.tagIds.get(link.id)!,
    pixelIds: rel.pixelIds.get(link.id)!,
    starts_at: iso(link.startsAt),
    expires_at: iso(link.expiresAt),
    expired_url: link.expiredUrl,
    max_clicks: link.maxClicks,
    has_password: link.passwordHash !== null,
    ios_url: link.iosUrl,
    android_url: link.androidUrl,
    desktop_url: link.desktopUrl,
    domain_id: link.domainId,
    webhook_url: link.webhookUrl,
    webhook_method: link.webhookMethod,
    webhook_enabled: link.webhookEnabled,
    webhook_failures: link.webhookFailures,
    is_active: link.isActive,
    rules: parseRules(link.rules),
    variants: parseVariants(link.variants),
    stats: statsOf(link),
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
  };
}

export type LinkDetails = Awaited<ReturnType<typeof linkDetails>>;
export type LinkListItem = ReturnType<typeof linkListItem>;
