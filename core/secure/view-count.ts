/**
 * Counting one view of a secure link, and queueing the owner's notice in the same transaction (the
 * count and the notice commit together).
 */
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { transaction, type Tables } from "../../db/async";
import type { Deps } from "../deps";
import type { FileRow } from "./files";
import { queueViewNotice, type Viewer } from "./notify";

type ShareLinkRow = Tables["secureLinks"]["$inferSelect"];

/**
 * Counts a view with one conditional UPDATE that succeeds only while the link is still active (not
 * revoked, not expired, views left, folder not paused), so with maxViews N exactly N concurrent
 * openers get one, on every node. Returns the counted link, or undefined when it was no longer
 * active. A counted view of a link with notifyOnView queues the owner's notice in the same transaction.
 */
export async function countView(
  deps: Pick<Deps, "asyncDb" | "clock" | "config" | "geo">,
  linkId: number,
  now: Date,
  file: Pick<FileRow, "name">,
  viewer: Viewer,
): Promise<ShareLinkRow | undefined> {
  const { secureLinks: l, secureFolders, secureFiles } = deps.asyncDb.tables;
  const folderActive = sql`not (select ${secureFolders.isPaused} from ${secureFolders} join ${secureFiles} on ${secureFiles.folderId} = ${secureFolders.id} where ${secureFiles.id} = ${l.fileId})`;
  return transaction(deps.asyncDb, async (tx) => {
    const [res] = await tx
      .update(l)
      .set({ viewCount: sql`${l.viewCount} + 1` })
      .where(
        and(
          eq(l.id, linkId),
          eq(l.isRevoked, false),
          gt(l.expiresAt, now),
          or(isNull(l.maxViews), lt(l.viewCount, l.maxViews)),
          folderActive,
        ),
      )
      .returning();
    if (res?.notifyOnView) await queueViewNotice(tx, deps, res, file, viewer);
    return res;
  });
}
