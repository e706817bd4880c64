import type { SQL } from "bun";
import type { ByteRange, FileStore } from "./index";

/** Bytes per row: a range read fetches at most one partial chunk at each end. */
export const CHUNK_BYTES = 256 * 1024;
/** Chunks of an upload still being written live under this prefix until it is complete. */
const PENDING = ".part/";

/**
 * Files in the database (table stored_chunks): each file as rows of (key, idx, bytes) of
 * CHUNK_BYTES each, the last shorter. An upload inserts its chunks one by one under a pending key as
 * they arrive (no connection is held between chunks, and memory stays at one chunk), then renames
 * them to the file's key in one transaction; a download reads one chunk per pull, only the part a
 * range covers.
 */
export function createPgStore(sql: SQL, now: () => Date): FileStore {
  return {
    driver: "postgres",
    async put(key, source) {
      const pending = `${PENDING}${key}`;
      const createdAt = now();
      let idx = 0;
      let size = 0;
      const parts: Uint8Array[] = [];
      let buffered = 0;
      const write = async (bytes: Uint8Array) => {
        await sql`INSERT INTO stored_chunks (key, idx, data, created_at) VALUES (${pending}, ${idx}, ${bytes}, ${createdAt})`;
        idx++;
      };
      try {
        for await (const chunk of source) {
          size += chunk.length;
          parts.push(chunk);
          buffered += chunk.length;
          while (buffered >= CHUNK_BYTES) {
            const all = Buffer.concat(parts);
            await write(all.subarray(0, CHUNK_BYTES));
            parts.length = 0;
            parts.push(all.subarray(CHUNK_BYTES));
            buffered = all.length - CHUNK_BYTES;
          }
        }
        // an empty file is one empty chunk, so that it exists
        if (buffered > 0 || idx === 0) await write(Buffer.concat(parts));
        await sql.begin(async (tx) => {
          await tx`DELETE FROM stored_chunks WHERE key = ${key}`;
          await tx`UPDATE stored_chunks SET key = ${key} WHERE key = ${pending}`;
        });
      } catch (e) {
        await sql`DELETE FROM stored_chunks WHERE key = ${pending}`.catch(() => undefined);
        throw e;
      }
      return size;
    },
    async open(key) {
      // octet_length reads the stored length, not the bytes
      const rows: { idx: number; n: number }[] =
        await sql`SELECT idx, octet_length(data)::int AS n FROM stored_chunks WHERE key = ${key} ORDER BY idx`;
      if (rows.length === 0) return null;
      const starts: number[] = [];
      let size = 0;
      for (const r of rows) {
        starts.push(size);
        size += r.n;
      }
      return { size, body: (range) => chunkStream(sql, key, rows, starts, range ?? { start: 0, end: size - 1 }) };
    },
    async remove(key) {
      await sql`DELETE FROM stored_chunks WHERE key = ${key}`;
    },
    async sweep(prefix, before) {
      const rows = await sql`DELETE FROM stored_chunks WHERE key LIKE ${`${PENDING}${prefix}/%`} AND created_at < ${before} RETURNING key`;
      return new Set(rows.map((r: { key: string }) => r.key)).size;
    },
  };
}

/** The bytes of `range`, one chunk (or the covered part of one) per pull. */
function chunkStream(
  sql: SQL,
  key: string,
  rows: { idx: number; n: number }[],
  starts: number[],
  range: ByteRange,
): ReadableStream<Uint8Array> {
  let i = starts.findLastIndex((s) => s <= range.start);
  let pos = range.start;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (pos > range.end || i < 0 || i >= rows.length) return controller.close();
        const from = pos - starts[i]!;
        const length = Math.min(rows[i]!.n - from, range.end - pos + 1);
        const [row] =
          await sql`SELECT substring(data FROM ${from + 1} FOR ${length}) AS d FROM stored_chunks WHERE key = ${key} AND idx = ${rows[i]!.idx}`;
        if (!row) return controller.error(new Error(`stored file ${key} was removed while it was read`));
        controller.enqueue(new Uint8Array(row.d));
        pos += length;
        i++;
        if (pos > range.end) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}
