/**
 * Every share link of a user across files and folders, newest first, with the name of the file it
 * shares: the flat list the bot's secure section offers beside the folders.
 */
import { desc, eq } from "drizzle-orm";
import type { Deps } from "../deps";
import { toShareLinkJson, type ShareLinkJson } from "./share-links";

export type ShareListEntry = ShareLinkJson & { fileName: string };

/** The user's share links, newest first, at most `limit`. */
export async function listShareLinks(
  deps: Pick<Deps, "asyncDb" | "config" | "clock">,
  userId: number,
  limit = 40,
): Promise<ShareListEntry[]> {
  const { secureLinks, secureFiles, secureFolders } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .select({ link: secureLinks, fileName: secureFiles.name, paused: secureFolders.isPaused })
    .from(secureLinks)
    .innerJoin(secureFiles, eq(secureFiles.id, secureLinks.fileId))
    .innerJoin(secureFolders, eq(secureFolders.id, secureFiles.folderId))
    .where(eq(secureLinks.userId, userId))
    .orderBy(desc(secureLinks.id))
    .limit(limit);
  return rows.map((r) => ({ ...toShareLinkJson(deps, r.link, r.paused), fileName: r.fileName }));
}
