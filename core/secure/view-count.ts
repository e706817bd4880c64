/**
 * Counting one view of a secure link, and queueing the owner's notice in the same transaction. It
 * stays on the synchronous handle until transactions move to the async seam: the count and the
 * notice commit together, and the outbox they write to takes a synchronous transaction.
 */
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { secureFiles, secureFolders, secureLinks } from "../../db/schema";
import { writeTransaction } from "../../db/transaction";
import type { Deps } from "../deps";
import type { FileRow } from "./files";
import { enqueueViewNotice, type Viewer } from "./notify";

type LinkRow = typeof secureLinks.$inferSelect;

/**
 * Counts a view with one conditional UPDATE that succeeds only while the link is still active (not
 * revoked, not expired, views left, folder not paused), so with maxViews N exactly N concurrent
 * openers get one. Returns the counted link, or undefined when it was no longer active. A counted
 * view of a link with notifyOnView queues the owner's notice in the same transaction.
 */
export function countView(deps: Pick<Deps, "db" | "clock" | "config" | "geo">, linkId: number, now: Date, file: Pick<FileRow, "name">, viewer: Viewer): LinkRow | undefined {
  const l = secureLinks;
  const folderActive = sql`(select ${secureFolders.isPaused} from ${secureFolders} join ${secureFiles} on ${secureFiles.folderId} = ${secureFolders.id} where ${secureFiles.id} = ${l.fileId}) = 0`;
  return writeTransaction(deps.db, (tx) => {
    const res = tx
      .update(l)
      .set({ viewCount: sql`${l.viewCount} + 1` })
      .where(and(eq(l.id, linkId), eq(l.isRevoked, false), gt(l.expiresAt, now), or(isNull(l.maxViews), lt(l.viewCount, l.maxViews)), folderActive))
      .returning()
      .get();
    if (res?.notifyOnView) enqueueViewNotice(tx, deps, res, file, viewer);
    return res;
  });
}
