import { integer } from "drizzle-orm/sqlite-core";

/** Milliseconds since the epoch, read back as a Date. */
export const ts = (name: string) => integer(name, { mode: "timestamp_ms" });
export const createdAt = () => ts("created_at").notNull().$defaultFn(() => new Date());
export const bool = (name: string) => integer(name, { mode: "boolean" });
