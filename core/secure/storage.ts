/**
 * Bytes of uploaded secure files on disk under DATA_DIR/secure. Uploads are written to a temporary
 * file under DATA_DIR/secure/tmp with a byte counter and renamed into place only when complete.
 */
import { PRIVATE_DIR, PRIVATE_FILE } from "../data-dir";
import { createWriteStream, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { Deps } from "../deps";
import { TooLarge } from "../errors";
import { randomSecret } from "../random";

/** The spec's upload limit. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Bytes kept from the start of an upload for content sniffing. */
const HEAD_BYTES = 4100;

/** Where stored bytes live: DATA_DIR/secure. */
export function secureDir(deps: Pick<Deps, "config">): string {
  return join(deps.config.dataDir, "secure");
}

/** Where uploads are written until complete: DATA_DIR/secure/tmp. */
export function tmpDir(deps: Pick<Deps, "config">): string {
  return join(secureDir(deps), "tmp");
}

/** Absolute path of a stored file from its `storagePath` (relative to DATA_DIR). */
export function absolutePath(deps: Pick<Deps, "config">, storagePath: string): string {
  return join(deps.config.dataDir, storagePath);
}

export interface SavedTemp {
  tmpPath: string;
  size: number;
  /** first bytes, for magic-number sniffing */
  head: Uint8Array;
}

/**
 * Writes `source` to a fresh temporary file, counting bytes. Passing `maxBytes` aborts at once with
 * TooLarge and removes the partial file; any other failure removes it too.
 */
export async function saveToTemp(deps: Pick<Deps, "config">, source: AsyncIterable<Uint8Array> | Readable, maxBytes = MAX_UPLOAD_BYTES): Promise<SavedTemp> {
  // readable by the service's user only, like everything under DATA_DIR (see core/data-dir.ts)
  mkdirSync(tmpDir(deps), { recursive: true, mode: PRIVATE_DIR });
  const tmpPath = join(tmpDir(deps), `${randomSecret(12)}.part`);
  const out = createWriteStream(tmpPath, { flags: "wx", mode: PRIVATE_FILE });
  const outDone = new Promise<void>((resolve, reject) => {
    out.on("close", resolve);
    out.on("error", reject);
  });
  let size = 0;
  const headParts: Uint8Array[] = [];
  let headLen = 0;
  try {
    for await (const chunk of source as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > maxBytes) throw new TooLarge(`The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
      if (headLen < HEAD_BYTES) {
        headParts.push(chunk.subarray(0, HEAD_BYTES - headLen));
        headLen += Math.min(chunk.length, HEAD_BYTES - headLen);
      }
      if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", r));
    }
    out.end();
    await outDone;
  } catch (e) {
    out.destroy();
    await outDone.catch(() => undefined);
    rmSync(tmpPath, { force: true });
    throw e;
  }
  return { tmpPath, size, head: new Uint8Array(Buffer.concat(headParts)) };
}

/** Moves a completed temporary file into place; returns its storagePath (relative to DATA_DIR). */
export function commitTemp(deps: Pick<Deps, "config">, tmpPath: string): string {
  const storagePath = join("secure", `${randomSecret(18)}.bin`);
  renameSync(tmpPath, absolutePath(deps, storagePath));
  return storagePath;
}

/** Deletes stored bytes (missing files are fine). */
export function removeStoredFiles(deps: Pick<Deps, "config" | "log">, storagePaths: (string | null)[]): void {
  for (const p of storagePaths) {
    if (!p) continue;
    try {
      rmSync(absolutePath(deps, p), { force: true });
    } catch (e) {
      deps.log.warn(`could not remove stored file ${p}`, e);
    }
  }
}

/**
 * Removes temporary uploads older than `olderThanMs` (left behind only if the process died during an
 * upload). Returns how many were removed.
 */
export function sweepStaleUploads(deps: Pick<Deps, "config" | "clock">, olderThanMs = 3600_000): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(tmpDir(deps));
  } catch {
    return 0;
  }
  for (const name of names) {
    const path = join(tmpDir(deps), name);
    try {
      if (statSync(path).mtimeMs < deps.clock.now().getTime() - olderThanMs) {
        rmSync(path, { force: true });
        removed++;
      }
    } catch {
      /* vanished meanwhile */
    }
  }
  return removed;
}
