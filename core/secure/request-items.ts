/**
 * Receiving items through a request link: a slot is reserved with one conditional UPDATE (so with
 * maxFiles N, exactly N concurrent senders get in), the item is stored as a file of the owner's
 * folder (plan limits apply as for the owner's own uploads) and queued to the owner's bot chat.
 * A failed item (too large, plan limit, broken upload) gives its slot back.
 */
import type { Readable } from "node:stream";
import { and, eq, gt, isNotNull, isNull, lt, or, sql, sum } from "drizzle-orm";
import { first } from "../../db/async";
import type { Deps } from "../deps";
import { AppError, FieldError } from "../errors";
import { cleanFileName, createFile, createUploadedFile, deleteFile, ownedFile, type FileJson } from "./files";
import { queueRequestItem } from "./notify";
import { requestByCode, requestState, requestStateError, type RequestRow } from "./requests";

/** What a sender hands in: a text, or the stream of a file (at most 10 MB). */
export type RequestItem = { text: string } | { stream: AsyncIterable<Uint8Array> | Readable; fileName: string };

/**
 * How long one file sent through a request link may take to arrive in all (10 MB in a minute is
 * 170 KB/s, a slow mobile upload) and how long it may pause between two pieces. A sender that
 * trickles or stalls a file holds a slot of a capped link; past either limit the upload is cut off
 * with 408 and its slot freed for the next sender, within seconds for a stalled one.
 */
export const REQUEST_UPLOAD_DEADLINE_MS = 60_000;
export const REQUEST_UPLOAD_IDLE_MS = 10_000;

/** The two limits on one upload (tests make them short). */
export interface UploadTiming {
  deadlineMs: number;
  idleMs: number;
}
const UPLOAD_TIMING: UploadTiming = { deadlineMs: REQUEST_UPLOAD_DEADLINE_MS, idleMs: REQUEST_UPLOAD_IDLE_MS };

/**
 * What one request link may receive in all, whatever the owner's plan has left: a link that leaks
 * fills at most this much of the owner's storage with strangers' files.
 */
export const REQUEST_LINK_MAX_BYTES = 100 * 1024 * 1024;

/** The largest text item, as for the owner's own text files. */
export const MAX_REQUEST_TEXT = 512 * 1024;

/** Checks that a request link still takes items: NotFound when unknown, Gone (410) otherwise. */
export async function openRequest(deps: Pick<Deps, "asyncDb" | "clock">, code: string): Promise<RequestRow> {
  const row = await requestByCode(deps, code);
  const state = requestState(row, deps.clock.now());
  if (state !== "active") throw requestStateError(state);
  return row;
}

async function reserveSlot(deps: Pick<Deps, "asyncDb" | "clock">, row: RequestRow): Promise<void> {
  const r = deps.asyncDb.tables.secureRequests;
  const now = deps.clock.now();
  const taken = first(
    await deps.asyncDb
      .update(r)
      .set({ filesReceived: sql`${r.filesReceived} + 1` })
      .where(
        and(
          eq(r.id, row.id),
          eq(r.isActive, true),
          or(isNull(r.expiresAt), gt(r.expiresAt, now)),
          or(isNull(r.maxFiles), lt(r.filesReceived, r.maxFiles)),
        ),
      )
      .returning({ id: r.id }),
  );
  if (taken) return;
  const state = requestState(await requestByCode(deps, row.code), now);
  throw requestStateError(state === "active" ? "full" : state);
}

async function releaseSlot(deps: Pick<Deps, "asyncDb">, row: Pick<RequestRow, "id">): Promise<void> {
  const r = deps.asyncDb.tables.secureRequests;
  // never below 0; CASE rather than SQLite's max(a, b), which PostgreSQL spells greatest
  await deps.asyncDb
    .update(r)
    .set({ filesReceived: sql`case when ${r.filesReceived} > 0 then ${r.filesReceived} - 1 else 0 end` })
    .where(eq(r.id, row.id));
}

/**
 * Stores one item sent through the request link `code` in the owner's folder and queues it to the
 * owner's bot chat. 404 unknown code, 410 turned off / expired / full, 413 over 10 MB, 403 plan limit.
 */
export async function receiveRequestItem(
  deps: Pick<Deps, "asyncDb" | "clock" | "config" | "log" | "storage">,
  code: string,
  item: RequestItem,
  timing: number | Partial<UploadTiming> = {},
): Promise<FileJson> {
  const limits = { ...UPLOAD_TIMING, ...(typeof timing === "number" ? { deadlineMs: timing } : timing) };
  const row = await openRequest(deps, code);
  if ("text" in item && !item.text.trim()) throw new FieldError("text", "must not be empty");
  // bytes, as the limit says: 500,000 Chinese characters are 1.5 MB in UTF-8
  if ("text" in item && Buffer.byteLength(item.text, "utf8") > MAX_REQUEST_TEXT) throw new FieldError("text", "must be at most 512 KB");
  await reserveSlot(deps, row);
  let file: FileJson;
  try {
    const stamp = deps.clock.now().toISOString().slice(0, 16).replace("T", " ");
    if ((await receivedBytes(deps, row.id)) >= REQUEST_LINK_MAX_BYTES) throw requestStorageFull();
    file =
      "text" in item
        ? await createFile(deps, row.userId, {
            folderId: row.folderId,
            name: `Text received ${stamp} UTC`,
            contentType: "text",
            textContent: item.text,
            requestId: row.id,
          })
        : await createUploadedFile(
            deps,
            row.userId,
            {
              folderId: row.folderId,
              name: cleanFileName(item.fileName),
              description: `Received through “${row.title || row.code}”`,
              requestId: row.id,
            },
            withDeadline(item.stream, limits),
            item.fileName,
          );
    // two senders at once may both have found room: the one that crossed the line takes its file back
    if ((await receivedBytes(deps, row.id)) > REQUEST_LINK_MAX_BYTES) {
      await deleteFile(deps, row.userId, file.id);
      throw requestStorageFull();
    }
  } catch (e) {
    await releaseSlot(deps, row);
    throw e;
  }
  const stored = await ownedFile(deps, row.userId, file.id);
  await queueRequestItem(deps, row, stored);
  return file;
}

/**
 * The chunks of `source`, failing with 408 once `deadlineMs` have passed since the first was asked
 * for (`upload_too_slow`), or once no chunk came for `idleMs` (`upload_stalled`), also while the
 * sender sends nothing at all. (Real-time limits on purpose: they bound how long a connection holds
 * a slot, which the injected clock does not measure.)
 */
async function* withDeadline(
  source: AsyncIterable<Uint8Array> | Readable,
  { deadlineMs, idleMs }: UploadTiming,
): AsyncGenerator<Uint8Array> {
  const chunks = (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  const timers: ReturnType<typeof setTimeout>[] = [];
  const after = (ms: number, error: () => AppError) => {
    const late = new Promise<never>((_, reject) => timers.push(setTimeout(() => reject(error()), Math.max(0, ms))));
    late.catch(() => {}); // observed below; never an unhandled rejection
    return late;
  };
  const tooSlow = after(
    deadlineMs,
    () =>
      new AppError(
        408,
        "upload_too_slow",
        `The upload took longer than ${Math.round(deadlineMs / 1000)} s; send it again over a faster connection`,
      ),
  );
  try {
    for (;;) {
      const stalled = after(
        idleMs,
        () =>
          new AppError(
            408,
            "upload_stalled",
            `Nothing arrived for ${Math.round(idleMs / 1000)} s, so the upload was stopped; send the file again`,
          ),
      );
      const next = await Promise.race([chunks.next(), tooSlow, stalled]);
      clearTimeout(timers.pop());
      if (next.done) return;
      yield next.value;
    }
  } finally {
    for (const timer of timers) clearTimeout(timer);
    void chunks.return?.()?.catch?.(() => {});
  }
}

/** Bytes the request link `requestId` has received so far (files still held). */
async function receivedBytes(deps: Pick<Deps, "asyncDb">, requestId: number): Promise<number> {
  const { secureFiles } = deps.asyncDb.tables;
  return Number(
    first(
      await deps.asyncDb
        .select({ n: sum(secureFiles.fileSize) })
        .from(secureFiles)
        .where(eq(secureFiles.requestId, requestId)),
    )?.n ?? 0,
  );
}

const requestStorageFull = () =>
  new AppError(
    413,
    "request_storage_full",
    `This request link has received its ${REQUEST_LINK_MAX_BYTES / 1024 / 1024} MB; ask its owner for a new one`,
  );

/**
 * Gives back what request uploads cut off by a crash left: a file row made before its bytes came
 * (createUploadedFile makes the row, then streams) whose process died in between has no bytes, yet
 * held a slot of its request link and counted toward the owner's plan. Rows older than the upload
 * deadline and a minute more can belong to no upload still running on any node: each is deleted and
 * its slot released. Runs every minute (jobs/index.ts); returns how many it gave back.
 */
export async function releaseAbandonedUploads(deps: Pick<Deps, "asyncDb" | "clock">): Promise<number> {
  const { secureFiles } = deps.asyncDb.tables;
  const before = new Date(deps.clock.now().getTime() - REQUEST_UPLOAD_DEADLINE_MS - 60_000);
  const gone = await deps.asyncDb
    .delete(secureFiles)
    .where(
      and(
        isNotNull(secureFiles.requestId),
        isNull(secureFiles.storagePath),
        eq(secureFiles.contentType, "file"),
        lt(secureFiles.createdAt, before),
      ),
    )
    .returning({ requestId: secureFiles.requestId });
  for (const { requestId } of gone) await releaseSlot(deps, { id: requestId! });
  return gone.length;
}
