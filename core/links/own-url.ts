/**
 * Which of a user's own objects a URL of this service names: a tracking link (`SHORT_URL/<code>`,
 * or `<custom domain>/<code>`), a share link (`SHORT_URL/s/<code>`) or a request link
 * (`SHORT_URL/r/<code>`). Such a URL cannot be a target; the bot opens the object's screen instead
 * when its owner pastes it. Someone else's object, or none, is null.
 */
import { and, eq } from "drizzle-orm";
import type { Deps } from "../deps";

export type OwnObject = { kind: "link" | "share" | "request"; id: number };

/** The user's object that `url` (already known to be one of this service's) names, or null. */
export async function ownObjectAt(deps: Pick<Deps, "asyncDb">, userId: number, url: URL): Promise<OwnObject | null> {
  let parts: string[];
  try {
    parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return null; // a malformed %-escape names nothing
  }
  const { links, secureLinks, secureRequests } = deps.asyncDb.tables;
  const db = deps.asyncDb;
  if (parts.length === 1) {
    const [row] = await db
      .select({ id: links.id })
      .from(links)
      .where(and(eq(links.code, parts[0]!), eq(links.userId, userId)))
      .limit(1);
    return row ? { kind: "link", id: row.id } : null;
  }
  if (parts.length === 2 && parts[0] === "s") {
    const [row] = await db
      .select({ id: secureLinks.id })
      .from(secureLinks)
      .where(and(eq(secureLinks.code, parts[1]!), eq(secureLinks.userId, userId)))
      .limit(1);
    return row ? { kind: "share", id: row.id } : null;
  }
  if (parts.length === 2 && parts[0] === "r") {
    const [row] = await db
      .select({ id: secureRequests.id })
      .from(secureRequests)
      .where(and(eq(secureRequests.code, parts[1]!), eq(secureRequests.userId, userId)))
      .limit(1);
    return row ? { kind: "request", id: row.id } : null;
  }
  return null;
}
