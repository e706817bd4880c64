import { and, count, eq, isNotNull, isNull, ne, sum } from "drizzle-orm";
import type { Readable } from "node:stream";
import { first, serializeOn, transaction, type AsyncTx, type Tables } from "../../db/async";
import { languageFor, t } from "../i18n/translate";
import { timeZoneOf } from "../i18n/zone";
import type { Deps } from "../deps";
import { FieldError, NotFound } from "../errors";
import { assertWithinLimit } from "../accounts/plans";
import { getUser } from "../accounts/users";
import { ownedFolder, requireName } from "./folders";
import { contentTypeOf, sniffMime, type SecureContentType } from "./sniff";
import { MAX_UPLOAD_BYTES, removeStoredFiles, saveUpload } from "./storage";

export type FileRow = Tables["secureFiles"]["$inferSelect"];
const MB = 1024 * 1024;

export interface FileJson {
  id: number;
  folderId: number;
  name: string;
  description: string;
  contentType: SecureContentType;
  mimeType: string | null;
  fileName: string | null;
  fileSize: number | null;
  /** only for contentType "text" */
  textContent?: string;
  /** false until the bytes of a non-text file are uploaded */
  hasContent: boolean;
  createdAt: string;
}

/** The API shape of a file record (textContent only for text files). */
export function toFileJson(row: FileRow): FileJson {
  const json: FileJson = {
    id: row.id,
    folderId: row.folderId,
    name: row.name,
    description: row.description ?? "",
    contentType: row.contentType,
    mimeType: row.mimeType,
    fileName: row.fileName,
    fileSize: row.fileSize,
    hasContent: hasContent(row),
    createdAt: row.createdAt.toISOString(),
  };
  if (row.contentType === "text") json.textContent = row.textContent ?? "";
  return json;
}

/** A text file has its text; any other file has content once its bytes are uploaded. */
export function hasContent(row: FileRow): boolean {
  return row.contentType === "text" ? row.textContent !== null : row.storagePath !== null;
}

/** The user's file row; NotFound when missing or someone else's. */
export async function ownedFile(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<FileRow> {
  const { secureFiles } = deps.asyncDb.tables;
  const row = first(
    await deps.asyncDb
      .select()
      .from(secureFiles)
      .where(and(eq(secureFiles.id, id), eq(secureFiles.userId, userId))),
  );
  if (!row) throw new NotFound("File");
  return row;
}

/** Files of one of the user's folders, oldest first; NotFound for someone else's folder. */
export async function listFiles(deps: Pick<Deps, "asyncDb">, userId: number, folderId: number): Promise<FileJson[]> {
  await ownedFolder(deps, userId, folderId);
  const { secureFiles } = deps.asyncDb.tables;
  return (await deps.asyncDb.select().from(secureFiles).where(eq(secureFiles.folderId, folderId)).orderBy(secureFiles.id)).map(toFileJson);
}

export interface CreateFileInput {
  folderId: number;
  /** a text note without one is named neutrally ("Note 3, 25 Nov"): never after its content */
  name?: string;
  description?: string;
  contentType: SecureContentType;
  textContent?: string;
  /** the request link it came through */
  requestId?: number;
}

/**
 * Creates a file record in one of the user's folders. Text files carry `textContent`; other types get
 * their bytes with `storeUpload`. Counts against the plan's `secureFiles` (and text against `storageMB`).
 */
export async function createFile(
  deps: Pick<Deps, "asyncDb" | "clock" | "config">,
  userId: number,
  input: CreateFileInput,
): Promise<FileJson> {
  await ownedFolder(deps, userId, input.folderId);
  const isText = input.contentType === "text";
  const given = input.name === undefined ? undefined : requireName(input.name);
  if (given === undefined && !isText) throw new FieldError("name", "is required");
  if (isText && (input.textContent === undefined || input.textContent.length === 0))
    throw new FieldError("textContent", "is required for contentType text");
  if (!isText && input.textContent !== undefined)
    throw new FieldError("textContent", "is only for contentType text; upload other content to POST /api/secure/files/:id/upload");
  const { secureFiles } = deps.asyncDb.tables;
  const bytes = isText ? Buffer.byteLength(input.textContent!) : null;
  // the plan's counts checked and the row added with the user's files held still, on every node
  const row = await transaction(deps.asyncDb, async (tx) => {
    await holdFiles(tx, userId);
    const user = await getUser({ asyncDb: tx }, userId);
    const files = first(await tx.select({ n: count() }).from(secureFiles).where(eq(secureFiles.userId, userId)))!.n;
    assertWithinLimit(deps, user, "secureFiles", Number(files));
    if (bytes) await assertStorage({ ...deps, asyncDb: tx }, userId, bytes, 0, input.requestId !== undefined);
    const name = given ?? (await neutralNoteName(tx, userId, deps.clock.now()));
    const [made] = await tx
      .insert(secureFiles)
      .values({
        userId,
        folderId: input.folderId,
        name,
        description: input.description ?? "",
        contentType: input.contentType,
        requestId: input.requestId ?? null,
        textContent: isText ? input.textContent! : null,
        mimeType: isText ? "text/plain" : null,
        fileSize: bytes,
        createdAt: deps.clock.now(),
      })
      .returning();
    return made!;
  });
  return toFileJson(row);
}

/**
 * The name of a note its owner did not name: its number among the owner's notes and the day, e.g.
 * "Note 3, 25 Nov" / "Заметка 3, 25 нояб.", in the owner's language and day of their time zone. A
 * note's first line would show its secret in folder lists, share lists, the "was opened"
 * notification on a lock screen and the viewer's title.
 */
async function neutralNoteName(tx: AsyncTx, userId: number, now: Date): Promise<string> {
  const { secureFiles, users } = tx.tables;
  const [owner] = await tx.select({ language: users.language, appLanguage: users.appLanguage }).from(users).where(eq(users.id, userId));
  const language = languageFor(owner?.language, owner?.appLanguage);
  const zone = await timeZoneOf({ asyncDb: tx }, userId);
  const notes = Number(
    first(
      await tx
        .select({ n: count() })
        .from(secureFiles)
        .where(and(eq(secureFiles.userId, userId), eq(secureFiles.contentType, "text"))),
    )!.n,
  );
  const day = now.toLocaleDateString(language === "ru" ? "ru-RU" : "en-GB", { day: "numeric", month: "short", timeZone: zone });
  return t(language, "note-default-name", { n: notes + 1, date: day });
}

/** Inside a transaction: holds the user's file count and storage still until it ends (plan limits exact across nodes). */
function holdFiles(tx: AsyncTx, userId: number): Promise<void> {
  return serializeOn(tx, `secure-files-of:${userId}`);
}

/**
 * The storage rule for `adding` bytes: the owner's own files against the plan's `storageMB`; files
 * strangers sent through request links against `requestStorageMB`, a quota of their own, so a
 * request link can never fill the space the owner's own files need.
 */
async function assertStorage(
  deps: Pick<Deps, "asyncDb" | "clock" | "config">,
  userId: number,
  adding: number,
  exceptFileId = 0,
  fromRequest = false,
): Promise<void> {
  const { secureFiles } = deps.asyncDb.tables;
  const pool = fromRequest ? isNotNull(secureFiles.requestId) : isNull(secureFiles.requestId);
  const used = first(
    await deps.asyncDb
      .select({ bytes: sum(secureFiles.fileSize) })
      .from(secureFiles)
      .where(and(eq(secureFiles.userId, userId), ne(secureFiles.id, exceptFileId), pool)),
  )!.bytes;
  const what = fromRequest ? "requestStorageMB" : "storageMB";
  assertWithinLimit(deps, await getUser(deps, userId), what, Math.ceil((Number(used ?? 0) / MB) * 100) / 100, adding / MB);
}

/**
 * Streams `source` into the file storage with a byte counter (413 past 10 MB), sniffs the MIME type
 * from the first bytes, checks the storage limit, then points the record at the new bytes. On any
 * failure nothing is left in the storage and the record is unchanged. Replaces earlier bytes of the file.
 */
export async function storeUpload(
  deps: Pick<Deps, "asyncDb" | "clock" | "config" | "log" | "storage">,
  userId: number,
  fileId: number,
  source: AsyncIterable<Uint8Array> | Readable,
  fileName: string,
): Promise<FileJson> {
  await ownedFile(deps, userId, fileId);
  const saved = await saveUpload(deps, source, MAX_UPLOAD_BYTES);
  const storagePath = saved.location;
  let recorded = false;
  try {
    const current = await ownedFile(deps, userId, fileId); // may have been deleted meanwhile
    const mimeType = await sniffMime(saved.head);
    const { secureFiles } = deps.asyncDb.tables;
    // the storage limit checked and the size recorded together: two uploads at once cannot both pass it
    await transaction(deps.asyncDb, async (tx) => {
      await holdFiles(tx, userId);
      await assertStorage({ ...deps, asyncDb: tx }, userId, saved.size, fileId, current.requestId !== null);
      await tx
        .update(secureFiles)
        .set({
          storagePath,
          mimeType,
          contentType: contentTypeOf(mimeType),
          fileName: cleanFileName(fileName),
          fileSize: saved.size,
          textContent: null,
        })
        .where(eq(secureFiles.id, fileId));
    });
    recorded = true;
    await removeStoredFiles(deps, [current.storagePath]);
    return toFileJson(await ownedFile(deps, userId, fileId));
  } catch (e) {
    if (!recorded) await removeStoredFiles(deps, [storagePath]);
    throw e;
  }
}

/**
 * A file name safe to show and to put in Content-Disposition: no path, no control characters and no
 * bidirectional controls (a right-to-left override makes "x\u202Efdp.exe" read as "xexe.pdf").
 */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed from names
    .replace(/[\u0000-\u001f\u007f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "")
    .trim()
    .slice(0, 200);
  return clean || "file";
}

/** Deletes a file, its links and its bytes. */
export async function deleteFile(deps: Pick<Deps, "asyncDb" | "config" | "log" | "storage">, userId: number, id: number): Promise<void> {
  const { secureFiles } = deps.asyncDb.tables;
  // the path comes from the deleted row itself: an upload that replaced the bytes meanwhile is not left behind
  const [gone] = await deps.asyncDb
    .delete(secureFiles)
    .where(and(eq(secureFiles.id, id), eq(secureFiles.userId, userId)))
    .returning({ path: secureFiles.storagePath });
  if (!gone) throw new NotFound("File");
  await removeStoredFiles(deps, [gone.path]);
}

/**
 * Creates a file record and stores `source` as its bytes in one go (the bot's path); when the upload
 * fails (too large, plan limit, broken stream) the record is removed again.
 */
export async function createUploadedFile(
  deps: Pick<Deps, "asyncDb" | "clock" | "config" | "log" | "storage">,
  userId: number,
  input: { folderId: number; name: string; description?: string; requestId?: number },
  source: AsyncIterable<Uint8Array> | Readable,
  fileName: string,
): Promise<FileJson> {
  const created = await createFile(deps, userId, { ...input, contentType: "file" });
  try {
    return await storeUpload(deps, userId, created.id, source, fileName);
  } catch (e) {
    const { secureFiles } = deps.asyncDb.tables;
    await deps.asyncDb.delete(secureFiles).where(eq(secureFiles.id, created.id));
    throw e;
  }
}
