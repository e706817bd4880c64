import { ownerWantsClickPostbacks } from "../click-postbacks";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Deps } from "../deps";
import { limitsOf } from "../accounts/plans";
import type { UserRow } from "../accounts/users";
import { ValidationError } from "../errors";
import { newCode } from "./codes";
import { urlProblem } from "./validate";
import { trackingUrlOf } from "./views";
import { countLinks, lockLinkCount } from "./links";
import { transaction } from "../../db/async";
import { looseKeys, sameUrlKey } from "./same-url";

const BULK_MAX = 100;

export interface BulkResult {
  created: number;
  errors: number;
  results: { url: string; trackingUrl: string; code: string; id: number }[];
  failed: { url: string; error: string }[];
}

/**
 * Creates one link per url on the default domain (spec rule 2). Invalid urls and duplicates (in the
 * request or of one of the user's links) go to `failed` with a reason; when the plan allows only part
 * of the list, the first valid urls that fit are created and the rest fail with the plan reason.
 */
export async function bulkCreateLinks(deps: Deps, user: UserRow, urls: string[]): Promise<BulkResult> {
  if (!Array.isArray(urls) || urls.length < 1 || urls.length > BULK_MAX)
    throw new ValidationError(`urls must hold 1 to ${BULK_MAX} entries`, [
      { field: "urls", message: `must hold 1 to ${BULK_MAX} entries` },
    ]);
  const now = deps.clock.now();
  const { links } = deps.asyncDb.tables;
  const trimmed = urls.map((u) => (typeof u === "string" ? u.trim() : ""));
  // the URLs are checked before the transaction (a check may read custom domains), not inside it
  const problems = await Promise.all(trimmed.map((url) => (url ? urlProblem(deps, url) : "is empty")));
  return transaction(deps.asyncDb, async (tx) => {
    // the user's links that may be the same URL written otherwise, found by the loose key and then
    // compared by the exact one
    const loose = [...new Set(trimmed.filter(Boolean).flatMap(looseKeys))];
    await lockLinkCount(tx, user.id);
    const existing = new Set(
      (loose.length
        ? await tx
            .select({ url: links.url })
            .from(links)
            .where(and(eq(links.userId, user.id), inArray(sql`lower(rtrim(${links.url}, '/'))`, loose)))
        : []
      ).map((r) => sameUrlKey(r.url)),
    );
    let room = Math.max(0, limitsOf(deps, user).links - (await countLinks({ asyncDb: tx }, user.id)));
    const clickPostbacks = await ownerWantsClickPostbacks(tx, user.id);
    const seen = new Set<string>();
    const out: BulkResult = { created: 0, errors: 0, results: [], failed: [] };
    for (const [i, original] of urls.entries()) {
      const url = trimmed[i]!;
      const fail = (error: string) => void out.failed.push({ url: original, error });
      const problem = problems[i];
      if (problem) {
        fail(`invalid URL: ${problem}`);
        continue;
      }
      const key = sameUrlKey(url);
      if (seen.has(key)) {
        fail("duplicate: the same URL appears earlier in this request");
        continue;
      }
      seen.add(key);
      if (existing.has(key)) fail("duplicate: you already have a link to this URL");
      else if (room <= 0) fail("plan limit reached: upgrade your plan to create more links");
      else {
        const [row] = await tx
          .insert(links)
          .values({ userId: user.id, url, code: await newCode({ asyncDb: tx }), clickPostbacks, createdAt: now, updatedAt: now })
          .returning();
        room--;
        out.results.push({ url: row!.url, trackingUrl: trackingUrlOf(deps, row!.code), code: row!.code, id: row!.id });
      }
    }
    out.created = out.results.length;
    out.errors = out.failed.length;
    return out;
  });
}
