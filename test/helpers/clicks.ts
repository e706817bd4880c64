/**
 * Test stand-in for the click recorder (built by the links feature): inserts users, links and clicks
 * directly, and runs the click hooks in the clicks' transaction as the recorder does.
 */
import type { SqliteWriterDeps as Deps } from "../../core/clicks/listeners";
import { runClickListeners, withKinds, type ClickListener } from "../../core/clicks/listeners";
import { createClickSink, type ClickSink, type ClickSinkOptions } from "../../core/clicks/sink";
import { createClickWriter } from "../../core/clicks/writer";
import { CLICK_LISTENERS } from "../../core/click-listeners";
import { clicks, links, type ClickRow, type LinkRow, type NewClick } from "../../db/schema";

let seq = 0;

export function insertLink(deps: Deps, userId: number, extra: Partial<typeof links.$inferInsert> = {}): LinkRow {
  seq += 1;
  return deps.db.insert(links).values({ userId, code: `code${seq}x`, url: "https://example.com/page", title: `Link ${seq}`, createdAt: deps.clock.now(), ...extra }).returning().get();
}

export type ClickInput = Omit<NewClick, "linkId" | "clickedAt"> & { at: string | number | Date };

/** Records clicks on `link` in one transaction, running CLICK_LISTENERS like the recorder. */
export function recordClicks(deps: Deps, link: LinkRow, input: ClickInput[]) {
  return deps.db.transaction((tx) => {
    const rows = input.map(({ at, ...c }) => ({ ...c, linkId: link.id, clickedAt: new Date(at) }));
    const batch: { click: ClickRow; link: LinkRow }[] = [];
    for (let i = 0; i < rows.length; i += 500)
      for (const click of tx.insert(clicks).values(rows.slice(i, i + 500)).returning().all()) batch.push({ click, link });
    runClickListeners(CLICK_LISTENERS, tx, deps, withKinds(batch));
    return batch.map((b) => b.click);
  });
}

/**
 * A click sink of its own on `deps` (no journal), writing through `listeners`: the service's table
 * by default, or a test's copy it adds listeners to (the writer reads the array it is given).
 */
export function createTestSink(deps: Deps, listeners: readonly ClickListener[] = CLICK_LISTENERS, opts: Partial<ClickSinkOptions> = {}): ClickSink {
  return createClickSink({ log: deps.log, config: deps.config, writer: () => createClickWriter(deps, listeners), journalDir: null, ...opts });
}
