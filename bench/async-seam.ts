/**
 * `bun run bench async-seam [--ops N]`: what the async database seam (db/async.ts) costs on SQLite
 * against the synchronous drizzle calls the service makes today, on one database file: a select of
 * one row by primary key, a select of a user's 20 tags by name, and a small write transaction (an
 * update and a read). Each
 * operation runs N times in a row, awaited one after the other as a request would; it prints µs per
 * operation, best of 5 runs, and the ratio async/sync.
 */
import { asc, eq, sql } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { writeTransaction } from "../db/transaction";
import { openSqlite } from "../db/async-sqlite";
import { transaction } from "../db/async";
import * as schema from "../db/schema";

const { values } = parseArgs({ options: { ops: { type: "string", default: "20000" } } });
const N = Number(values.ops);
if (!Number.isInteger(N) || N < 1) throw new Error("--ops must be a positive whole number");

const dir = mkdtempSync(join(tmpdir(), "linkbot-async-bench-"));
// as the service opens it: the synchronous handle checks the seam's gate before each query
const { handle, seam } = openSqlite(join(dir, "app.db"));
try {
  const { db } = handle;
  const adb = seam.db;
  const { users, tags } = schema;
  const [user] = db.insert(users).values({ username: "bench" }).returning().all();
  const userId = user!.id;
  for (let i = 0; i < 20; i++)
    db.insert(tags)
      .values({ userId, name: `tag-${i}`, createdAt: new Date() })
      .run();

  /** µs per operation, best of 5 runs of N */
  async function timed(op: () => unknown): Promise<number> {
    let best = Infinity;
    for (let r = 0; r < 5; r++) {
      const t0 = Bun.nanoseconds();
      for (let i = 0; i < N; i++) await op();
      best = Math.min(best, (Bun.nanoseconds() - t0) / N / 1000);
    }
    return best;
  }
  const bump = sql`coalesce(${users.firstName}, '') || ''`;

  const { id: tagId } = db.select({ id: tags.id }).from(tags).limit(1).get()!;
  const rows = {
    "row by id, sync .get()": await timed(() => db.select().from(tags).where(eq(tags.id, tagId)).get()),
    "row by id, async seam": await timed(() => adb.select().from(adb.tables.tags).where(eq(adb.tables.tags.id, tagId))),
    "20 rows, sync .all()": await timed(() => db.select().from(tags).where(eq(tags.userId, userId)).orderBy(asc(tags.name)).all()),
    "20 rows, sync builder awaited": await timed(() => db.select().from(tags).where(eq(tags.userId, userId)).orderBy(asc(tags.name))),
    "20 rows, async seam": await timed(() =>
      adb.select().from(adb.tables.tags).where(eq(adb.tables.tags.userId, userId)).orderBy(asc(adb.tables.tags.name)),
    ),
    "transaction, sync writeTransaction": await timed(() =>
      writeTransaction(db, (tx) => {
        tx.update(users).set({ firstName: bump }).where(eq(users.id, userId)).run();
        return tx.select({ id: tags.id }).from(tags).where(eq(tags.userId, userId)).limit(1).all();
      }),
    ),
    "transaction, async seam": await timed(() =>
      transaction(adb, async (tx) => {
        await tx.update(tx.tables.users).set({ firstName: bump }).where(eq(tx.tables.users.id, userId));
        return tx.select({ id: tx.tables.tags.id }).from(tx.tables.tags).where(eq(tx.tables.tags.userId, userId)).limit(1);
      }),
    ),
  };
  console.log(`async seam on SQLite, ${N} operations per run, best of 5 (µs per operation):`);
  for (const [name, us] of Object.entries(rows)) console.log(`  ${name.padEnd(36)} ${us.toFixed(2)}`);
  console.log(`row by id ratio async/sync: ${(rows["row by id, async seam"] / rows["row by id, sync .get()"]).toFixed(2)}`);
  console.log(`20 rows ratio async/sync: ${(rows["20 rows, async seam"] / rows["20 rows, sync .all()"]).toFixed(2)}`);
  console.log(`transaction ratio async/sync: ${(rows["transaction, async seam"] / rows["transaction, sync writeTransaction"]).toFixed(2)}`);
} finally {
  handle.close();
  rmSync(dir, { recursive: true, force: true });
}
