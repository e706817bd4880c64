/**
 * Entry module of the click writer thread: its own dependencies and database connection, and a
 * click writer fed with the composition root's listener table (core/clicks/writer-thread.ts does the
 * work; this file only wires it).
 */
import { clickWriterOf, openDeps } from "./index";
import { serveClickWriter } from "../core/clicks/writer-thread";

declare const self: Worker;

/** The writer's pool: one transaction at a time, and the mark read after a lost connection. */
const WRITER_POOL = 2;

serveClickWriter(self, async (config) => {
  // the node's own pool size is for its requests; the writer needs only a couple of connections
  const deps = await openDeps({ ...config, pgPoolSize: Math.min(config.pgPoolSize, WRITER_POOL) });
  return { writer: clickWriterOf(deps), log: deps.log, close: () => deps.handle.close() };
});
