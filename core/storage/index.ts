/**
 * Where uploaded files keep their bytes: one interface, three drivers. `local` is a directory under
 * DATA_DIR (one node, or nodes sharing DATA_DIR), `postgres` the database of cluster mode (so a
 * cluster needs PostgreSQL and nothing else), `s3` S3-compatible object storage through Bun's
 * built-in client. FILE_STORAGE picks where new files go; a stored file's location names its driver,
 * so files written by another driver stay readable and `storage migrate` can move them one by one.
 */
import type { SQL } from "bun";
import type { Config, FileStorageDriver } from "../../config";
import { randomSecret } from "../random";
import { createLocalStore } from "./local";
import { createPgStore } from "./postgres";
import { createS3Store } from "./s3";

export type { FileStorageDriver } from "../../config";

/** Bytes `start` to `end` of a file, both included (as in an HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

/** A stored file found by `open`: its size, and its bytes (all or a range) read when asked. */
export interface StoredObject {
  size: number;
  /** The bytes, streamed: nothing is read before the body is consumed. */
  body(range?: ByteRange): Blob | ReadableStream<Uint8Array>;
}

/** One driver: stores, opens and removes the bytes of a key such as `secure/<random>.bin`. */
export interface FileStore {
  readonly driver: FileStorageDriver;
  /**
   * Streams `source` into `key`, replacing what it held. Nothing is visible under `key` until the
   * whole source is written; when `source` throws (too large, cut off) nothing is left and its error
   * is thrown. Returns the number of bytes written.
   */
  put(key: string, source: AsyncIterable<Uint8Array>): Promise<number>;
  /** The file under `key`, or null when there is none. */
  open(key: string): Promise<StoredObject | null>;
  /** Removes `key` (a missing key is fine). */
  remove(key: string): Promise<void>;
  /** Removes what uploads under `prefix` cut off by a crash left behind, if older than `before`; returns how many. */
  sweep(prefix: string, before: Date): Promise<number>;
}

/**
 * The stored files of the service: `save` writes new files through FILE_STORAGE's driver and answers
 * their location (the key, prefixed `postgres:` or `s3:` unless local, so a location made before
 * a driver existed is a local path); `open` and `remove` take a location of any driver.
 */
export interface FileStorage {
  /** where new files go (FILE_STORAGE) */
  readonly driver: FileStorageDriver;
  /** The driver's store; throws when that driver is not configured (no DATABASE_URL, no S3_*). */
  store(driver: FileStorageDriver): FileStore;
  /** Streams `source` into a new file under `prefix`; returns its location and size. */
  save(prefix: string, source: AsyncIterable<Uint8Array>): Promise<{ location: string; size: number }>;
  open(location: string): Promise<StoredObject | null>;
  remove(location: string): Promise<void>;
}

/** A location's driver and key: `postgres:<key>`, `s3:<key>`, or a key under DATA_DIR. */
export function parseLocation(location: string): { driver: FileStorageDriver; key: string } {
  const m = /^(postgres|s3):(.+)$/.exec(location);
  return m ? { driver: m[1] as FileStorageDriver, key: m[2]! } : { driver: "local", key: location };
}

export function locationOf(driver: FileStorageDriver, key: string): string {
  return driver === "local" ? key : `${driver}:${key}`;
}

/** A new file's key under `prefix`: random, so neither guessable nor colliding. */
function newKey(prefix: string): string {
  return `${prefix}/${randomSecret(18)}.bin`;
}

/** Bytes in memory (a text file's) as a StoredObject. */
export function blobObject(blob: Blob): StoredObject {
  return { size: blob.size, body: (range) => (range ? blob.slice(range.start, range.end + 1) : blob) };
}

/**
 * The service's file storage for its configuration: the local directory always, PostgreSQL when
 * `sql` (the cluster's pool) is given, S3 when S3_* is set. Drivers are made on first use.
 */
export function createFileStorage(
  config: Pick<Config, "dataDir" | "fileStorage" | "s3">,
  opts: { sql?: SQL | null; now?: () => Date } = {},
): FileStorage {
  const now = opts.now ?? (() => new Date());
  const made = new Map<FileStorageDriver, FileStore>();
  const store = (driver: FileStorageDriver): FileStore => {
    let s = made.get(driver);
    if (s) return s;
    if (driver === "local") s = createLocalStore(config.dataDir);
    else if (driver === "postgres") {
      if (!opts.sql) throw new Error("files stored in PostgreSQL need DATABASE_URL");
      s = createPgStore(opts.sql, now);
    } else {
      if (!config.s3) throw new Error("files stored in S3 need S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY");
      s = createS3Store(config.s3);
    }
    made.set(driver, s);
    return s;
  };
  return {
    driver: config.fileStorage,
    store,
    async save(prefix, source) {
      const key = newKey(prefix);
      const size = await store(config.fileStorage).put(key, source);
      return { location: locationOf(config.fileStorage, key), size };
    },
    async open(location) {
      const { driver, key } = parseLocation(location);
      return store(driver).open(key);
    },
    async remove(location) {
      const { driver, key } = parseLocation(location);
      return store(driver).remove(key);
    },
  };
}
