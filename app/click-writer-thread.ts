/**
 * Entry module of the click writer thread: it opens only what it writes with (its own connection to
 * the database, a pool of WRITER_POOL on PostgreSQL; the clock, a logger and the address lookup) and
 * a click writer fed with the composition root's listener table. No mailer, Bot API client, caches or
 * cluster primitives: core/clicks/writer-thread.ts does the work; this file only wires it.
 */
import { systemClock } from "../core/clock";
import { createLogger } from "../core/log";
import { createGeoLookup } from "../core/clicks/enrich";
import { clickJournalOf } from "../core/clicks/backlog";
import { existingHolderId } from "../core/cluster/name-fence";
import { serveClickWriter } from "../core/clicks/writer-thread";
import { CLICK_LISTENERS } from "./click-listeners";
import { openEngine } from "./engine";

declare const self: Worker;

/**
 * The writer's pool on PostgreSQL: it writes one transaction at a time, and reads the journal mark
 * only between transactions (after a lost connection), so one connection is all it uses.
 */
const WRITER_POOL = 1;

serveClickWriter(self, async (config) => {
  const log = createLogger(config.logLevel, undefined, config.logFormat, config.nodeName);
  // the request thread migrated (or checked) the database before it started this thread
  const engine = await openEngine(config, { migrate: false, pool: WRITER_POOL });
  const journal = clickJournalOf(config);
  const writer = engine.clickWriter(
    { asyncDb: engine.asyncDb, clock: systemClock, geo: createGeoLookup(config) },
    CLICK_LISTENERS,
    journal.name,
    existingHolderId(journal.dir),
  );
  return { writer, log, close: () => engine.handle.close() };
});
