import { and, count, eq, not } from "drizzle-orm";
import { secureFiles, secureFolders } from "../../db/schema";
import type { Deps } from "../deps";
import { FieldError, NotFound } from "../errors";
import { removeStoredFiles } from "./storage";
import { writeTransaction } from "../../db/transaction";

type FolderRow = typeof secureFolders.$inferSelect;

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

function fileCountOf(deps: Pick<Deps, "db">, folderId: number): number {
  return deps.db.select({ n: count() }).from(secureFiles).where(eq(secureFiles.folderId, folderId)).get()!.n;
}

/** A folder or file name without surrounding spaces; a blank one is a 400 on `name`. */
export function requireName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new FieldError("name", "must not be blank");
  return trimmed;
}

/** The user's folder row; NotFound when missing or someone else's. */
export function ownedFolder(deps: Pick<Deps, "db">, userId: number, id: number): FolderRow {
  const row = deps.db.select().from(secureFolders).where(and(eq(secureFolders.id, id), eq(secureFolders.userId, userId))).get();
  if (!row) throw new NotFound("Folder");
  return row;
}

/** All folders of a user, oldest first, with their file counts. */
export function listFolders(deps: Pick<Deps, "db">, userId: number): FolderJson[] {
  const rows = deps.db.select().from(secureFolders).where(eq(secureFolders.userId, userId)).orderBy(secureFolders.id).all();
  const counts = new Map(
    deps.db
      .select({ folderId: secureFiles.folderId, n: count() })
      .from(secureFiles)
      .where(eq(secureFiles.userId, userId))
      .groupBy(secureFiles.folderId)
      .all()
      .map((r) => [r.folderId, r.n]),
  );
  return rows.map((r) => toJson(r, counts.get(r.id) ?? 0));
}

/** One of the user's folders with its file count; NotFound otherwise. */
export function getFolder(deps: Pick<Deps, "db">, userId: number, id: number): FolderJson {
  return toJson(ownedFolder(deps, userId, id), fileCountOf(deps, id));
}

/** Creates a folder. */
export function createFolder(deps: Pick<Deps, "db" | "clock">, userId: number, input: { name: string; description?: string }): FolderJson {
  const name = requireName(input.name);
  const now = deps.clock.now();
  const row = deps.db
    .insert(secureFolders)
    .values({ userId, name, description: input.description ?? "", createdAt: now, updatedAt: now })
    .returning()
    .get();
  return toJson(row, 0);
}

/** Renames or re-describes a folder (only the fields given). */
export function updateFolder(deps: Pick<Deps, "db" | "clock">, userId: number, id: number, input: { name?: string; description?: string }): FolderJson {
  ownedFolder(deps, userId, id);
  const patch: Partial<FolderRow> = { updatedAt: deps.clock.now() };
  if (input.name !== undefined) patch.name = requireName(input.name);
  if (input.description !== undefined) patch.description = input.description;
  deps.db.update(secureFolders).set(patch).where(eq(secureFolders.id, id)).run();
  return getFolder(deps, userId, id);
}

/** Flips isPaused: a paused folder's links answer 403 on the public side. */
export function togglePause(deps: Pick<Deps, "db" | "clock">, userId: number, id: number): FolderJson {
  ownedFolder(deps, userId, id);
  deps.db
    .update(secureFolders)
    .set({ isPaused: not(secureFolders.isPaused) as unknown as boolean, updatedAt: deps.clock.now() })
    .where(eq(secureFolders.id, id))
    .run();
  return getFolder(deps, userId, id);
}

/** Deletes a folder, its files (rows and bytes on disk) and their links. */
export function deleteFolder(deps: Pick<Deps, "db" | "config" | "log">, userId: number, id: number): void {
  ownedFolder(deps, userId, id);
  const paths = writeTransaction(deps.db, (tx) => {
    const files = tx.select({ id: secureFiles.id, path: secureFiles.storagePath }).from(secureFiles).where(eq(secureFiles.folderId, id)).all();
    // links and files go by ON DELETE CASCADE
    tx.delete(secureFolders).where(eq(secureFolders.id, id)).run();
    return files.map((f) => f.path);
  });
  removeStoredFiles(deps, paths);
}
