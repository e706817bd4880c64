import { and, count, eq, not, notExists } from "drizzle-orm";
import { first, type Tables } from "../../db/async";
import type { Deps } from "../deps";
import { FieldError, NotFound } from "../errors";
import { removeStoredFiles } from "./storage";
import { assertUnderCap } from "../accounts/caps";

type FolderRow = Tables["secureFolders"]["$inferSelect"];

export interface FolderJson {
  id: number;
  name: string;
  description: string;
  isPaused: boolean;
  fileCount: number;
  createdAt: string;
  updatedAt: string;
}

function toJson(row: FolderRow, fileCount: number): FolderJson {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? "",
    isPaused: row.isPaused,
    fileCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function fileCountOf(deps: Pick<Deps, "asyncDb">, folderId: number): Promise<number> {
  const { secureFiles } = deps.asyncDb.tables;
  return first(await deps.asyncDb.select({ n: count() }).from(secureFiles).where(eq(secureFiles.folderId, folderId)))!.n;
}

/** A folder or file name without surrounding spaces; a blank one is a 400 on `name`. */
export function requireName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new FieldError("name", "must not be blank");
  return trimmed;
}

/** The user's folder row; NotFound when missing or someone else's. */
export async function ownedFolder(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<FolderRow> {
  const { secureFolders } = deps.asyncDb.tables;
  const row = first(
    await deps.asyncDb
      .select()
      .from(secureFolders)
      .where(and(eq(secureFolders.id, id), eq(secureFolders.userId, userId))),
  );
  if (!row) throw new NotFound("Folder");
  return row;
}

/** All folders of a user, oldest first, with their file counts. */
export async function listFolders(deps: Pick<Deps, "asyncDb">, userId: number): Promise<FolderJson[]> {
  const { secureFiles, secureFolders } = deps.asyncDb.tables;
  const rows = await deps.asyncDb.select().from(secureFolders).where(eq(secureFolders.userId, userId)).orderBy(secureFolders.id);
  const counted = await deps.asyncDb
    .select({ folderId: secureFiles.folderId, n: count() })
    .from(secureFiles)
    .where(eq(secureFiles.userId, userId))
    .groupBy(secureFiles.folderId);
  const counts = new Map(counted.map((r) => [r.folderId, r.n]));
  return rows.map((r) => toJson(r, counts.get(r.id) ?? 0));
}

/** One of the user's folders with its file count; NotFound otherwise. */
export async function getFolder(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<FolderJson> {
  return toJson(await ownedFolder(deps, userId, id), await fileCountOf(deps, id));
}

/** Creates a folder. */
export async function createFolder(
  deps: Pick<Deps, "asyncDb" | "clock">,
  userId: number,
  input: { name: string; description?: string },
): Promise<FolderJson> {
  const name = requireName(input.name);
  await assertUnderCap(deps.asyncDb, "secureFolders", userId);
  const now = deps.clock.now();
  const { secureFolders } = deps.asyncDb.tables;
  const [row] = await deps.asyncDb
    .insert(secureFolders)
    .values({ userId, name, description: input.description ?? "", createdAt: now, updatedAt: now })
    .returning();
  return toJson(row!, 0);
}

/** Renames or re-describes a folder (only the fields given). */
export async function updateFolder(
  deps: Pick<Deps, "asyncDb" | "clock">,
  userId: number,
  id: number,
  input: { name?: string; description?: string },
): Promise<FolderJson> {
  await ownedFolder(deps, userId, id);
  const patch: Partial<FolderRow> = { updatedAt: deps.clock.now() };
  if (input.name !== undefined) patch.name = requireName(input.name);
  if (input.description !== undefined) patch.description = input.description;
  const { secureFolders } = deps.asyncDb.tables;
  await deps.asyncDb.update(secureFolders).set(patch).where(eq(secureFolders.id, id));
  return getFolder(deps, userId, id);
}

/** Flips isPaused: a paused folder's links answer 403 on the public side. */
export async function togglePause(deps: Pick<Deps, "asyncDb" | "clock">, userId: number, id: number): Promise<FolderJson> {
  await ownedFolder(deps, userId, id);
  const { secureFolders } = deps.asyncDb.tables;
  await deps.asyncDb
    .update(secureFolders)
    .set({ isPaused: not(secureFolders.isPaused) as unknown as boolean, updatedAt: deps.clock.now() })
    .where(eq(secureFolders.id, id));
  return getFolder(deps, userId, id);
}

/**
 * Deletes a folder, its files (rows and bytes on disk) and their links. Without a transaction: the
 * files go first and hand back their storage paths in the same statement, and the folder goes only
 * once it holds no file, so a file added meanwhile is taken (with its bytes) by the next round
 * instead of by the cascade, which would leave its bytes behind.
 */
export async function deleteFolder(deps: Pick<Deps, "asyncDb" | "config" | "log" | "storage">, userId: number, id: number): Promise<void> {
  await ownedFolder(deps, userId, id);
  const { secureFiles, secureFolders } = deps.asyncDb.tables;
  const inFolder = eq(secureFiles.folderId, id);
  for (;;) {
    // the files' links go by ON DELETE CASCADE
    const files = await deps.asyncDb.delete(secureFiles).where(inFolder).returning({ path: secureFiles.storagePath });
    await removeStoredFiles(
      deps,
      files.map((f) => f.path),
    );
    const empty = notExists(deps.asyncDb.select({ id: secureFiles.id }).from(secureFiles).where(inFolder));
    const gone = await deps.asyncDb
      .delete(secureFolders)
      .where(and(eq(secureFolders.id, id), empty))
      .returning({ id: secureFolders.id });
    if (gone.length) return;
    // not deleted: a file landed in between (another round takes it), or another request deleted the folder first
    const [still] = await deps.asyncDb.select({ id: secureFolders.id }).from(secureFolders).where(eq(secureFolders.id, id)).limit(1);
    if (!still) return;
  }
}
