/**
 * Entry module of the click writer thread: its own dependencies and database connection, and a
 * click writer fed with the composition root's listener table (core/clicks/writer-thread.ts does the
 * work; this file only wires it).
 */
import { clickJournalOf, createDeps } from "./index";
import { CLICK_LISTENERS } from "./click-listeners";
import { createClickWriter } from "./clicks/writer";
import { serveClickWriter } from "./clicks/writer-thread";

declare const self: Worker;

serveClickWriter(self, async (config) => {
  const deps = createDeps(config);
  return { writer: createClickWriter(deps, CLICK_LISTENERS, { journal: clickJournalOf(config).name }), log: deps.log, close: () => deps.handle.close() };
});
