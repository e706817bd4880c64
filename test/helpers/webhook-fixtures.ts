/** Links and clicks written straight to the database, and a recorded click batch (as the recorder does it). */
import { eq } from "drizzle-orm";
import type { Deps } from "../../core/deps";
import { links, clicks, outbox, type LinkRow, type NewClick } from "../../db/schema";
import { runClickHooks } from "../../core/clicks/hooks";
import { createHmac } from "node:crypto";

let seq = 0;

export function insertLink(deps: Deps, userId: number, over: Partial<typeof links.$inferInsert> = {}): LinkRow {
  return deps.db
    .insert(links)
    .values({ userId, code: `c${Date.now().toString(36)}${seq++}`, url: "https://example.com/landing", title: "Landing", ...over })
    .returning()
    .get();
}

/** Inserts clicks on `link` and runs the click hooks in the same transaction, like the click recorder. */
export function recordClicks(deps: Deps, link: LinkRow, rows: Partial<NewClick>[] = [{}]) {
  return deps.db.transaction((tx) => {
    const batch = rows.map((r) => ({
      link,
      click: tx
        .insert(clicks)
        .values({ linkId: link.id, clickedAt: deps.clock.now(), ip: "198.51.100.4", country: "DE", city: "Berlin", device: "mobile", os: "iOS", browser: "Safari", referer: "https://t.me/", isBot: false, isUnique: true, ...r })
        .returning()
        .get(),
    }));
    runClickHooks(tx, deps, batch);
    return batch.map((b) => b.click);
  });
}

export function outboxRows(deps: Deps, topic?: string) {
  const q = deps.db.select().from(outbox);
  return (topic ? q.where(eq(outbox.topic, topic)) : q).orderBy(outbox.id).all();
}

/** Recomputes the X-Webhook-Signature of a received request (what a receiver does) and says whether it matches. */
export function signatureMatches(secret: string, headers: Record<string, string>, signedPayload: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(headers["x-webhook-signature"] ?? "");
  if (!m) return false;
  // computed independently of core, the way docs/webhooks.md tells receivers to
  const expected = createHmac("sha256", secret).update(`${m[1]}.${signedPayload}`).digest("hex");
  return expected === m[2] && m[1] === headers["x-webhook-timestamp"];
}
