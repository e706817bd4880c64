/**
 * Bytes of uploaded secure files, kept by the service's file storage (FILE_STORAGE: DATA_DIR, the
 * database or S3) under `secure/`. An upload is streamed through a byte counter into the storage and
 * becomes visible only when complete; past the limit it stops at once and nothing is left.
 */
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { Deps } from "../deps";
import { TooLarge } from "../errors";

/** The spec's upload limit. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Bytes kept from the start of an upload for content sniffing. */
const HEAD_BYTES = 4100;
/** The storage prefix of secure files. */
const PREFIX = "secure";

/** Where the local driver writes uploads until they are complete: DATA_DIR/secure/tmp. */
export function tmpDir(deps: Pick<Deps, "config">): string {
  return join(deps.config.dataDir, PREFIX, "tmp");
}

export interface SavedUpload {
  /** the file's `storagePath`: where the storage keeps it */
  location: string;
  size: number;
  /** first bytes, for magic-number sniffing */
  head: Uint8Array;
}

/**
 * Streams `source` into a new stored file, counting bytes. Past `maxBytes` it aborts at once with
 * TooLarge; on that or any other failure nothing is left in the storage.
 */
export async function saveUpload(
  deps: Pick<Deps, "storage">,
  source: AsyncIterable<Uint8Array> | Readable,
  maxBytes = MAX_UPLOAD_BYTES,
): Promise<SavedUpload> {
  const headParts: Uint8Array[] = [];
  let headLen = 0;
  async function* counted() {
    let size = 0;
    for await (const chunk of source as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > maxBytes) throw new TooLarge(`The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
      if (headLen < HEAD_BYTES) {
        headParts.push(chunk.slice(0, HEAD_BYTES - headLen));
        headLen += Math.min(chunk.length, HEAD_BYTES - headLen);
      }
      yield chunk;
    }
  }
  const { location, size } = await deps.storage.save(PREFIX, counted());
  return { location, size, head: new Uint8Array(Buffer.concat(headParts)) };
}

/** Deletes stored bytes (missing files are fine; a failure is logged, not thrown). */
export async function removeStoredFiles(deps: Pick<Deps, "storage" | "log">, locations: (string | null)[]): Promise<void> {
  for (const location of locations) {
    if (!location) continue;
    try {
      await deps.storage.remove(location);
    } catch (e) {
      deps.log.warn(`could not remove stored file ${location}`, e);
    }
  }
}

/**
 * Removes what uploads left behind when the process died during them, if older than `olderThanMs`
 * (temporary files under DATA_DIR, pending chunks in the database). Returns how many were removed.
 */
export function sweepStaleUploads(deps: Pick<Deps, "storage" | "clock">, olderThanMs = 3600_000): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - olderThanMs);
  return deps.storage.store(deps.storage.driver).sweep(PREFIX, before);
}
