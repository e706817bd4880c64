import { domainToASCII } from "node:url";
import { and, asc, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { domains } from "../../db/schema";
import { changes } from "../../db/client";
import { invalidateLinkCache } from "../links/link-cache";
import { Conflict, FieldError, NotFound } from "../errors";

export type DomainView = { id: number; hostname: string; createdAt: string };
const view = (r: typeof domains.$inferSelect): DomainView => ({ id: r.id, hostname: r.hostname, createdAt: r.createdAt.toISOString() });

/** the ASCII form of a domain name; the top-level label may be an IDN one (xn--p1ai is .рф) */
const HOSTNAME = /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

export function listDomains(deps: Pick<Deps, "db">, userId: number): DomainView[] {
  return deps.db.select().from(domains).where(eq(domains.userId, userId)).orderBy(asc(domains.hostname)).all().map(view);
}

/**
 * Registers a custom short-link hostname (pointed at this service by the user's DNS). A hostname
 * belongs to one account (409), and the service's own hosts cannot be claimed.
 */
export function createDomain(deps: Pick<Deps, "db" | "clock" | "config" | "linkCache">, userId: number, hostname: string): DomainView {
  const typed = hostname.trim().toLowerCase().replace(/\.$/, "");
  // an international name is kept in its ASCII (punycode) form: that is what browsers send as Host
  const host = /^[\x20-\x7e]*$/.test(typed) ? typed : domainToASCII(typed);
  if (!HOSTNAME.test(host)) throw new FieldError("hostname", "must be a domain name such as go.example.com (no scheme, port or path)");
  const own = [deps.config.baseUrl, deps.config.shortUrl].map((u) => new URL(u).hostname);
  if (own.includes(host)) throw new FieldError("hostname", "is the service's own host");
  if (deps.db.select({ id: domains.id }).from(domains).where(eq(domains.hostname, host)).get())
    throw new Conflict(`The domain ${host} is already registered`, "domain_taken");
  const row = deps.db.insert(domains).values({ userId, hostname: host, createdAt: deps.clock.now() }).returning().get();
  invalidateLinkCache(deps);
  return view(row);
}

/** Deletes a domain; its links fall back to the default short URL. */
export function deleteDomain(deps: Pick<Deps, "db" | "linkCache">, userId: number, id: number): void {
  if (!changes(deps.db.delete(domains).where(and(eq(domains.id, id), eq(domains.userId, userId))).run())) throw new NotFound("Domain");
  invalidateLinkCache(deps);
}
