/**
 * The file storage's three drivers under one test body: a directory under DATA_DIR, a real
 * PostgreSQL (migrated as the service migrates it) and a real S3-protocol server (s3rver) on
 * loopback, each through the same FileStore interface the secure feature uses.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../config";
import { createPgDb, type PgDbHandle } from "../../../db/postgres";
import { createFileStorage, type FileStorageDriver, type FileStore, type StoredObject } from "../../../core/storage";
import { CHUNK_BYTES } from "../../../core/storage/postgres";
import { startPostgres, type PgServer } from "../../helpers/postgres";
import { startS3Server, type S3Server } from "../../helpers/s3-server";

setDefaultTimeout(60_000);

const dataDir = mkdtempSync(join(tmpdir(), "linkbot-storage-"));
let pg: PgServer;
let db: PgDbHandle;
let s3: S3Server;
beforeAll(async () => {
  [pg, s3] = await Promise.all([startPostgres(), startS3Server()]);
  db = await createPgDb(pg.url, { max: 4 });
});
afterAll(async () => {
  await db?.close();
  await Promise.all([pg?.stop(), s3?.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
});

function storeOf(driver: FileStorageDriver): FileStore {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error", ...s3.env, DATABASE_URL: pg.url, FILE_STORAGE: driver });
  return createFileStorage(config, { sql: db.sql }).store(driver);
}

/** Bytes that differ at every offset, so a range off by one shows. */
function pattern(size: number, seed = 7): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed + (i >> 8)) & 0xff;
  return bytes;
}

/** `bytes` as an upload arrives: chunks of uneven sizes, one at a time. */
async function* streamed(bytes: Uint8Array, sizes = [1000, 65_536, 7, 300_000]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length]!;
    yield bytes.slice(at, at + n);
    at += n;
  }
}

async function* failingAfter(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield* streamed(bytes);
  throw new Error("the client went away");
}

async function read(object: StoredObject, range?: { start: number; end: number }): Promise<Uint8Array> {
  return new Uint8Array(await new Response(object.body(range)).arrayBuffer());
}

/** What a driver holds besides complete files: temporary files, pending chunks, objects. */
async function leftovers(driver: FileStorageDriver): Promise<string[]> {
  if (driver === "local") {
    try {
      return readdirSync(join(dataDir, "t", "tmp"));
    } catch {
      return [];
    }
  }
  if (driver === "postgres")
    return (await db.sql`SELECT DISTINCT key FROM stored_chunks WHERE key LIKE '.part/%'`).map((r: { key: string }) => r.key);
  const client = new Bun.S3Client({
    endpoint: s3.env.S3_ENDPOINT,
    bucket: s3.env.S3_BUCKET,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
  });
  return ((await client.list({ prefix: "t/" })).contents ?? []).map((o) => o.key);
}

for (const driver of ["local", "postgres", "s3"] as const)
  describe(driver, () => {
    test("a streamed upload is stored whole; read back whole and by byte ranges, across chunk edges", async () => {
      const store = storeOf(driver);
      const bytes = pattern(2 * CHUNK_BYTES + 12_345);
      expect(await store.put("t/whole.bin", streamed(bytes))).toBe(bytes.length);
      const object = (await store.open("t/whole.bin"))!;
      expect(object.size).toBe(bytes.length);
      expect(Buffer.compare(await read(object), bytes)).toBe(0);
      for (const [start, end] of [
        [0, 0],
        [0, 99],
        [CHUNK_BYTES - 10, CHUNK_BYTES + 9],
        [CHUNK_BYTES, CHUNK_BYTES],
        [1000, 2 * CHUNK_BYTES + 5],
        [bytes.length - 5, bytes.length - 1],
      ] as const)
        expect(Buffer.compare(await read(object, { start, end }), bytes.subarray(start, end + 1))).toBe(0);
    });

    test("an empty file exists with no bytes; a second put replaces the first", async () => {
      const store = storeOf(driver);
      await store.put("t/empty.bin", streamed(new Uint8Array(0)));
      const empty = (await store.open("t/empty.bin"))!;
      expect(empty.size).toBe(0);
      expect((await read(empty)).length).toBe(0);
      await store.put("t/again.bin", streamed(pattern(CHUNK_BYTES + 1, 1)));
      const second = pattern(500, 2);
      await store.put("t/again.bin", streamed(second));
      const replaced = (await store.open("t/again.bin"))!;
      expect(replaced.size).toBe(500);
      expect(Buffer.compare(await read(replaced), second)).toBe(0);
    });

    test("an upload cut off midway leaves nothing behind and throws its error", async () => {
      const store = storeOf(driver);
      const before = await leftovers(driver);
      await expect(store.put("t/cut.bin", failingAfter(pattern(CHUNK_BYTES * 2)))).rejects.toThrow("the client went away");
      await store.put("t/ok.bin", streamed(pattern(10))); // the next upload goes through as usual
      expect(await store.open("t/cut.bin")).toBeNull();
      expect((await leftovers(driver)).filter((k) => !before.includes(k) && !k.endsWith("ok.bin"))).toEqual([]);
    });

    test("delete removes a file; a missing key opens as null and deletes quietly", async () => {
      const store = storeOf(driver);
      await store.put("t/gone.bin", streamed(pattern(3000)));
      expect(await store.open("t/gone.bin")).not.toBeNull();
      await store.remove("t/gone.bin");
      expect(await store.open("t/gone.bin")).toBeNull();
      expect(await store.open("t/never.bin")).toBeNull();
      await store.remove("t/never.bin");
    });
  });

test("postgres: pending chunks of an upload cut off by a crash are swept once older than the cut-off; complete files stay", async () => {
  const store = storeOf("postgres");
  await store.put("sweep/kept.bin", streamed(pattern(100)));
  const old = new Date("2026-01-01T00:00:00Z");
  await db.sql`INSERT INTO stored_chunks (key, idx, data, created_at) VALUES ('.part/sweep/dead.bin', 0, ${Buffer.from("ab")}, ${old}), ('.part/sweep/dead.bin', 1, ${Buffer.from("cd")}, ${old}), ('.part/sweep/live.bin', 0, ${Buffer.from("ef")}, ${new Date("2026-01-01T02:00:00Z")})`;
  expect(await store.sweep("sweep", new Date("2026-01-01T01:00:00Z"))).toBe(1);
  const keys = (await db.sql`SELECT DISTINCT key FROM stored_chunks WHERE key LIKE '%sweep/%' ORDER BY key`).map(
    (r: { key: string }) => r.key,
  );
  expect(keys).toEqual([".part/sweep/live.bin", "sweep/kept.bin"]);
});
