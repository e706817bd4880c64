/**
 * @both-databases: links and recorded clicks go through the seam (and the listeners of the app's
 * engine); only `createTestSink` is SQLite's (test files that call it are not repeated on PostgreSQL).
 */
/**
 * Test stand-in for the click recorder (built by the links feature): inserts users, links and clicks
 * directly, and runs the click hooks in the clicks' transaction as the recorder does.
 */
import { withKinds, type ClickListener } from "../../core/clicks/listeners";
import { transaction, type AsyncTx } from "../../db/async";
import { createClickSink, type ClickSink, type ClickSinkOptions } from "../../core/clicks/sink";
import { createClickWriter, sqliteRowWriter, type SqliteWriterDeps as Deps } from "../../core/clicks/writer";
import type { Deps as ServiceDeps } from "../../core/deps";
import { writeRowsPg } from "../../core/clicks/pg-batch";
import { CLICK_LISTENERS } from "../../app/click-listeners";
import type { links, ClickRow, LinkRow, NewClick } from "../../db/schema";

let seq = 0;

/** The service's dependencies as a test app has them: the seam, and on SQLite the synchronous handle of its connection. */
type TestDeps = Deps;

/** Inserts a link for `userId` (on whichever database the app runs). */
export async function insertLink(
  deps: Pick<TestDeps, "asyncDb" | "clock">,
  userId: number,
  extra: Partial<typeof links.$inferInsert> = {},
): Promise<LinkRow> {
  seq += 1;
  const db = deps.asyncDb;
  const [made] = await db
    .insert(db.tables.links)
    .values({ userId, code: `code${seq}x`, url: "https://example.com/page", title: `Link ${seq}`, createdAt: deps.clock.now(), ...extra })
    .returning();
  return made!;
}

export type ClickInput = Omit<NewClick, "linkId" | "clickedAt"> & { at: string | number | Date };

/**
 * Stores click rows of `link` and writes the rows the click listeners return in the same
 * transaction, as the click writer of the app's engine does.
 */
export async function storeClicks(deps: TestDeps, link: LinkRow, rows: NewClick[]): Promise<ClickRow[]> {
  return transaction(deps.asyncDb, async (tx) => {
    const batch: { click: ClickRow; link: LinkRow }[] = [];
    for (let i = 0; i < rows.length; i += 500)
      for (const click of await tx
        .insert(tx.tables.clicks)
        .values(rows.slice(i, i + 500))
        .returning())
        batch.push({ click, link });
    await runListeners(tx, deps, batch);
    return batch.map((b) => b.click);
  });
}

/** Runs the click listeners on stored clicks and writes their rows inside `tx`, the way the click writer of the app's engine does. */
export async function runListeners(
  tx: AsyncTx,
  deps: TestDeps,
  batch: { click: ClickRow; link: LinkRow }[],
  listeners: readonly ClickListener[] = CLICK_LISTENERS,
): Promise<void> {
  const stored = withKinds(batch);
  const now = deps.clock.now();
  const writes = listeners.flatMap((listener) => listener(stored, now));
  if (tx.engine === "postgres") await writeRowsPg(tx, writes);
  else sqliteRowWriter(deps.db.$client)(writes); // the same connection, inside this transaction
}

/** Records clicks on `link` in one transaction, running CLICK_LISTENERS like the recorder. */
export function recordClicks(deps: TestDeps, link: LinkRow, input: ClickInput[]) {
  return storeClicks(
    deps,
    link,
    input.map(({ at, ...c }) => ({ ...c, linkId: link.id, clickedAt: new Date(at) })),
  );
}

/**
 * A click sink of its own on `deps` (no journal), writing through `listeners`: the service's table
 * by default, or a test's copy it adds listeners to (the writer reads the array it is given).
 */
export function createTestSink(
  deps: Deps & Pick<ServiceDeps, "log" | "config">,
  listeners: readonly ClickListener[] = CLICK_LISTENERS,
  opts: Partial<ClickSinkOptions> = {},
): ClickSink {
  return createClickSink({
    log: deps.log,
    config: deps.config,
    writer: () => createClickWriter(deps, listeners),
    journalDir: null,
    ...opts,
  });
}
