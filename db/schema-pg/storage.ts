import { pgTable, text, integer, primaryKey } from "drizzle-orm/pg-core";
import { pgColumns } from "../kit";

const { bytes: bytea, ts } = pgColumns;

/**
 * Bytes of stored files when FILE_STORAGE is `postgres` (the default in cluster mode): each file in
 * chunks of at most 256 KiB, so an upload and a download stream chunk by chunk and a byte range reads
 * only the chunks it covers. An upload writes its chunks under a pending key and renames them to the
 * file's key when complete; pending chunks of an upload cut off by a crash are swept by age.
 */
export const storedChunks = pgTable(
  "stored_chunks",
  {
    key: text("key").notNull(),
    idx: integer("idx").notNull(),
    data: bytea("data").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.idx] })],
);
