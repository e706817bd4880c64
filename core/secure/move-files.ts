/**
 * `storage migrate`: moves the bytes of every stored secure file to another storage driver. Each
 * file is copied under its own key, read back from the target and compared by SHA-256 with what was
 * read from the source; only then is its record pointed at the new location (if no upload replaced
 * it meanwhile) and the old copy removed. A file either moves whole or stays where it was, so the
 * command can run while the service serves, be stopped at any point, and be run again.
 */
import { createHash } from "node:crypto";
import { and, eq, isNotNull } from "drizzle-orm";
import type { Deps } from "../deps";
import { locationOf, parseLocation, type FileStorageDriver, type StoredObject } from "../storage";

export interface MoveReport {
  /** files now in the target that were elsewhere */
  moved: number;
  /** files that were in the target already */
  already: number;
  /** locations of records whose bytes are nowhere (left as they are) */
  missing: string[];
  /** files that did not move, and why (their bytes stay where they were) */
  failed: { location: string; reason: string }[];
}

/** The bytes of a stored object as they stream. */
async function* bytesOf(object: StoredObject): AsyncGenerator<Uint8Array> {
  const body = object.body();
  yield* (body instanceof Blob ? body.stream() : body) as AsyncIterable<Uint8Array>;
}

async function sha256Of(object: StoredObject): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of bytesOf(object)) hash.update(chunk);
  return hash.digest("hex");
}

/** Moves every stored secure file to `to` (see the module comment); `progress` hears about each file moved. */
export async function moveStoredFiles(
  deps: Pick<Deps, "asyncDb" | "storage" | "log">,
  to: FileStorageDriver,
  progress: (line: string) => void = () => {},
): Promise<MoveReport> {
  const target = deps.storage.store(to);
  const { secureFiles } = deps.asyncDb.tables;
  const rows = await deps.asyncDb
    .select({ id: secureFiles.id, location: secureFiles.storagePath })
    .from(secureFiles)
    .where(isNotNull(secureFiles.storagePath))
    .orderBy(secureFiles.id);
  const report: MoveReport = { moved: 0, already: 0, missing: [], failed: [] };
  for (const row of rows) {
    const from = row.location!;
    const { driver, key } = parseLocation(from);
    if (driver === to) {
      report.already++;
      continue;
    }
    try {
      const source = await deps.storage.open(from);
      if (!source) {
        report.missing.push(from);
        continue;
      }
      const read = createHash("sha256");
      const written = await target.put(
        key,
        (async function* () {
          for await (const chunk of bytesOf(source)) {
            read.update(chunk);
            yield chunk;
          }
        })(),
      );
      const sourceHash = read.digest("hex");
      const copy = await target.open(key);
      const copyHash = copy ? await sha256Of(copy) : null;
      if (written !== source.size || copy?.size !== source.size || copyHash !== sourceHash) {
        await target.remove(key);
        report.failed.push({
          location: from,
          reason: `the copy in ${to} does not match (SHA-256 ${copyHash ?? "none"} of ${copy?.size ?? 0} bytes, source ${sourceHash} of ${source.size})`,
        });
        continue;
      }
      const switched = await deps.asyncDb
        .update(secureFiles)
        .set({ storagePath: locationOf(to, key) })
        .where(and(eq(secureFiles.id, row.id), eq(secureFiles.storagePath, from)))
        .returning({ id: secureFiles.id });
      if (switched.length === 0) {
        // replaced or deleted meanwhile: its new bytes were stored by the service itself
        await target.remove(key);
        continue;
      }
      try {
        await deps.storage.remove(from);
      } catch (e) {
        deps.log.warn(`moved ${from}, but could not remove the old copy`, e);
      }
      report.moved++;
      progress(`moved ${from} → ${locationOf(to, key)} (${source.size} bytes, SHA-256 ${sourceHash.slice(0, 16)}…)`);
    } catch (e) {
      report.failed.push({ location: from, reason: (e as Error).message });
    }
  }
  return report;
}
