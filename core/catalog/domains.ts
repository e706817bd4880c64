import { ownerChat } from "../accounts/users";
import { t } from "../i18n/translate";
import { domainToASCII } from "node:url";
import { Resolver } from "node:dns/promises";
import { randomBytes } from "node:crypto";
import { and, asc, eq, isNotNull } from "drizzle-orm";
import type { Deps } from "../deps";
import { first, isUniqueViolation, type Tables } from "../../db/async";
import { invalidateLinkCache } from "../cluster/caches";
import { Conflict, FieldError, NotFound } from "../errors";
import { assertUnderCap } from "../accounts/caps";
import { queueBotMessage } from "../delivery/outbox";

type DomainRow = Tables["domains"]["$inferSelect"];

/** The DNS name whose TXT record proves control of `hostname`. */
const challengeName = (hostname: string) => `_linkbot-challenge.${hostname}`;
const newToken = () => randomBytes(16).toString("hex");
/** The TXT record's value for a domain's random token. */
const challengeValue = (token: string) => `linkbot-verify=${token}`;

export type DomainView = {
  id: number;
  hostname: string;
  verified: boolean;
  verifiedAt: string | null;
  /** the DNS record to publish: a TXT record at `name` holding `value` */
  verification: { type: "TXT"; name: string; value: string };
  createdAt: string;
};
const view = (r: DomainRow): DomainView => ({
  id: r.id,
  hostname: r.hostname,
  verified: r.verifiedAt !== null,
  verifiedAt: r.verifiedAt?.toISOString() ?? null,
  verification: { type: "TXT", name: challengeName(r.hostname), value: challengeValue(r.verificationToken) },
  createdAt: r.createdAt.toISOString(),
});

/** the ASCII form of a domain name; the top-level label may be an IDN one (xn--p1ai is .рф) */
const HOSTNAME = /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

export async function listDomains(deps: Pick<Deps, "asyncDb">, userId: number): Promise<DomainView[]> {
  const { domains } = deps.asyncDb.tables;
  return (await deps.asyncDb.select().from(domains).where(eq(domains.userId, userId)).orderBy(asc(domains.hostname))).map(view);
}

/** True when some account has verified `hostname`. */
async function verifiedByAnyone(deps: Pick<Deps, "asyncDb">, hostname: string): Promise<boolean> {
  const { domains } = deps.asyncDb.tables;
  return !!first(
    await deps.asyncDb
      .select({ id: domains.id })
      .from(domains)
      .where(and(eq(domains.hostname, hostname), isNotNull(domains.verifiedAt)))
      .limit(1),
  );
}

/**
 * Registers a custom short-link hostname, unverified: it serves nothing until its owner publishes
 * the TXT record of `verification` and calls `verifyDomain`. Several accounts may claim a hostname
 * (so a squatter cannot lock its real owner out); the first to verify owns it, and a verified
 * hostname cannot be claimed again (409 domain_taken). The service's own hosts cannot be claimed.
 */
export async function createDomain(
  deps: Pick<Deps, "asyncDb" | "clock" | "config" | "linkCache" | "cluster" | "log">,
  userId: number,
  hostname: string,
): Promise<DomainView> {
  const typed = hostname.trim().toLowerCase().replace(/\.$/, "");
  // an international name is kept in its ASCII (punycode) form: that is what browsers send as Host
  const host = /^[\x20-\x7e]*$/.test(typed) ? typed : domainToASCII(typed);
  if (!HOSTNAME.test(host)) throw new FieldError("hostname", "must be a domain name such as go.example.com (no scheme, port or path)");
  const own = [deps.config.baseUrl, deps.config.shortUrl].map((u) => new URL(u).hostname);
  if (own.includes(host)) throw new FieldError("hostname", "is the service's own host");
  if (await verifiedByAnyone(deps, host)) throw new Conflict(`The domain ${host} is already verified by another account`, "domain_taken");
  const { domains } = deps.asyncDb.tables;
  const exists = () => new Conflict(`You have already added ${host}`, "domain_exists");
  if (
    first(
      await deps.asyncDb
        .select({ id: domains.id })
        .from(domains)
        .where(and(eq(domains.hostname, host), eq(domains.userId, userId)))
        .limit(1),
    )
  )
    throw exists();
  await assertUnderCap(deps.asyncDb, "domains", userId);
  let row: DomainRow;
  try {
    [row] = (await deps.asyncDb
      .insert(domains)
      .values({ userId, hostname: host, verificationToken: newToken(), createdAt: deps.clock.now() })
      .returning()) as [DomainRow];
  } catch (e) {
    if (isUniqueViolation(e)) throw exists(); // the same account adding it twice at once: the unique index decides
    throw e;
  }
  // a claimed host, verified or not, no longer serves the service's plain links
  invalidateLinkCache(deps);
  return view(row);
}

/** The TXT records at `name`, each joined from its strings; [] when there are none. */
async function lookUpTxt(deps: Pick<Deps, "config">, name: string): Promise<string[]> {
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  if (deps.config.dnsServers) resolver.setServers(deps.config.dnsServers);
  try {
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""));
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ENOTFOUND" || code === "ENODATA") return [];
    throw new Conflict(
      `Could not look up the TXT record at ${name} (${code ?? (e as Error).message}); try again later`,
      "verification_failed",
    );
  }
}

/**
 * Checks the domain's TXT record (`node:dns` through DNS_SERVERS) and marks it verified. 409
 * `verification_failed` when the record is missing or holds another value; 409 `domain_taken`
 * when another account verified the hostname first (a unique index settles a race).
 */
export async function verifyDomain(
  deps: Pick<Deps, "asyncDb" | "clock" | "config" | "linkCache" | "cluster" | "log">,
  userId: number,
  id: number,
): Promise<DomainView> {
  const { domains } = deps.asyncDb.tables;
  const row = first(
    await deps.asyncDb
      .select()
      .from(domains)
      .where(and(eq(domains.id, id), eq(domains.userId, userId))),
  );
  if (!row) throw new NotFound("Domain");
  if (row.verifiedAt) return view(row);
  if (!row.verificationToken) {
    // a row written without a token (never by createDomain) must not verify against a guessable value
    await deps.asyncDb.update(domains).set({ verificationToken: newToken() }).where(eq(domains.id, row.id));
    return verifyDomain(deps, userId, id);
  }
  const name = challengeName(row.hostname);
  const want = challengeValue(row.verificationToken);
  const found = await lookUpTxt(deps, name);
  if (!found.includes(want)) {
    const seen = found.length ? `found ${found.map((v) => JSON.stringify(v)).join(", ")}` : "found no TXT record";
    throw new Conflict(
      `Publish a TXT record at ${name} with the value ${want} (${seen}); DNS changes can take a few minutes`,
      "verification_failed",
    );
  }
  if (await verifiedByAnyone(deps, row.hostname))
    throw new Conflict(`The domain ${row.hostname} is already verified by another account`, "domain_taken");
  let verified: DomainRow | undefined;
  try {
    verified = first(
      await deps.asyncDb
        .update(domains)
        .set({ verifiedAt: deps.clock.now() })
        .where(and(eq(domains.id, row.id), eq(domains.userId, userId)))
        .returning(),
    );
  } catch (e) {
    if (isUniqueViolation(e)) throw new Conflict(`The domain ${row.hostname} is already verified by another account`, "domain_taken");
    throw e;
  }
  if (!verified) throw new NotFound("Domain");
  invalidateLinkCache(deps);
  return view(verified);
}

/** Deletes a domain; its links fall back to the default short URL. */
export async function deleteDomain(
  deps: Pick<Deps, "asyncDb" | "linkCache" | "cluster" | "log">,
  userId: number,
  id: number,
): Promise<void> {
  const { domains } = deps.asyncDb.tables;
  const gone = await deps.asyncDb
    .delete(domains)
    .where(and(eq(domains.id, id), eq(domains.userId, userId)))
    .returning({ id: domains.id });
  if (!gone.length) throw new NotFound("Domain");
  invalidateLinkCache(deps);
}

/** Failed daily checks within REVERIFY_WINDOW_MS after which a verified domain loses its verification. */
const REVERIFY_FAILURES = 3;
const REVERIFY_WINDOW_MS = 7 * 86_400_000;

/**
 * The daily re-check of verified domains: a domain whose TXT record is gone at REVERIFY_FAILURES
 * checks within a week (a domain sold, expired or pointed elsewhere) stops being verified, so it no
 * longer serves its owner's links or counts their orphan visits, and its owner is told in the bot
 * (when they have a Telegram chat). A check that finds the record clears the failures; a failed DNS
 * lookup counts as a failure, which three in a week rule out being a passing outage. The failures
 * are counted in the cluster's shared counters. Returns the hostnames that lost their verification.
 */
export async function reverifyDomains(
  deps: Pick<Deps, "asyncDb" | "clock" | "config" | "linkCache" | "cluster" | "log">,
): Promise<string[]> {
  const { domains } = deps.asyncDb.tables;
  const lost: string[] = [];
  for (const row of await deps.asyncDb.select().from(domains).where(isNotNull(domains.verifiedAt)).orderBy(asc(domains.id))) {
    const now = deps.clock.now();
    const key = `domain-reverify:${row.id}`;
    const found = row.verificationToken ? await lookUpTxt(deps, challengeName(row.hostname)).catch(() => [] as string[]) : [];
    if (row.verificationToken && found.includes(challengeValue(row.verificationToken))) {
      await deps.cluster.counters.reset(key, REVERIFY_WINDOW_MS, now);
      continue;
    }
    const { count } = await deps.cluster.counters.hit(key, REVERIFY_WINDOW_MS, now);
    if (count < REVERIFY_FAILURES) continue;
    await deps.asyncDb.update(domains).set({ verifiedAt: null }).where(eq(domains.id, row.id));
    lost.push(row.hostname);
    deps.log.warn(`domains: ${row.hostname} lost its verification (its TXT record was missing at ${count} checks this week)`);
    const owner = await ownerChat(deps.asyncDb, row.userId);
    if (owner.chatId !== null) {
      const text = t(owner.lang, "domain-lost", {
        domain: Bun.escapeHTML(row.hostname),
        name: Bun.escapeHTML(challengeName(row.hostname)),
        value: Bun.escapeHTML(challengeValue(row.verificationToken ?? "")),
      });
      await queueBotMessage(deps.asyncDb, now, { userId: row.userId, topic: "notice", chatId: owner.chatId, params: { text } });
    }
  }
  if (lost.length) invalidateLinkCache(deps);
  return lost;
}
