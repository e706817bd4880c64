/**
 * The three file storage drivers side by side, in this process (no HTTP): streamed 10 MB uploads,
 * whole-file reads and random 256 KB byte ranges, against a directory, a real PostgreSQL and s3rver
 * (an S3-protocol server from npm) on loopback. `--files N` (default 8), `--ranges N` (default 400).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../config";
import { createPgDb } from "../db/postgres";
import { createFileStorage, type FileStore } from "../core/storage";
import { startPostgres } from "../test/helpers/postgres";
import { startS3Server } from "../test/helpers/s3-server";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const FILES = arg("files", 8);
const RANGES = arg("ranges", 400);
const SIZE = 10 * 1024 * 1024;
const RANGE = 256 * 1024;

const bytes = new Uint8Array(SIZE).map((_, i) => (i * 31) & 0xff);
async function* upload(): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < SIZE; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
}
async function drain(body: Blob | ReadableStream<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const chunk of (body instanceof Blob ? body.stream() : body) as AsyncIterable<Uint8Array>) n += chunk.length;
  return n;
}

async function measure(store: FileStore) {
  let t = performance.now();
  for (let i = 0; i < FILES; i++) await store.put(`bench/${i}.bin`, upload());
  const putMBs = (FILES * SIZE) / 1024 / 1024 / ((performance.now() - t) / 1000);
  t = performance.now();
  for (let i = 0; i < FILES; i++) {
    const n = await drain((await store.open(`bench/${i}.bin`))!.body());
    if (n !== SIZE) throw new Error(`read ${n} bytes of ${SIZE}`);
  }
  const getMBs = (FILES * SIZE) / 1024 / 1024 / ((performance.now() - t) / 1000);
  t = performance.now();
  for (let i = 0; i < RANGES; i++) {
    const start = Math.floor(Math.random() * (SIZE - RANGE));
    const n = await drain((await store.open(`bench/${i % FILES}.bin`))!.body({ start, end: start + RANGE - 1 }));
    if (n !== RANGE) throw new Error(`range read ${n} bytes of ${RANGE}`);
  }
  const rangesPerS = RANGES / ((performance.now() - t) / 1000);
  for (let i = 0; i < FILES; i++) await store.remove(`bench/${i}.bin`);
  return { putMBs, getMBs, rangesPerS };
}

const dataDir = mkdtempSync(join(tmpdir(), "linkbot-bench-storage-"));
const [pg, s3] = await Promise.all([startPostgres(), startS3Server()]);
const db = await createPgDb(pg.url, { max: 4 });
try {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error", DATABASE_URL: pg.url, ...s3.env });
  const storage = createFileStorage(config, { sql: db.sql });
  console.log(`${FILES} files of 10 MB (uploaded in 64 KB chunks), ${RANGES} random 256 KB ranges, one at a time`);
  console.log("driver    upload MB/s  read MB/s  ranges/s");
  for (const driver of ["local", "postgres", "s3"] as const) {
    const r = await measure(storage.store(driver));
    console.log(
      `${driver.padEnd(9)} ${r.putMBs.toFixed(0).padStart(11)} ${r.getMBs.toFixed(0).padStart(10)} ${r.rangesPerS.toFixed(0).padStart(9)}`,
    );
  }
} finally {
  await db.close();
  await Promise.all([pg.stop(), s3.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
}
