/**
 * Entry module of the click writer thread: its own dependencies and database connection, and a
 * click writer fed with the composition root's listener table (core/clicks/writer-thread.ts does the
 * work; this file only wires it).
 */
import { clickWriterOf, openDeps } from "./index";
import { serveClickWriter } from "./clicks/writer-thread";

declare const self: Worker;

serveClickWriter(self, async (config) => {
  const deps = await openDeps(config);
  return { writer: clickWriterOf(deps), log: deps.log, close: () => deps.handle.close() };
});
