import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../../config";
import type { AsyncDb } from "../../db/async";
import type { Clock } from "../clock";
import { journalExtent } from "./journal-heads";

/** Clicks answered and journaled but not yet written to the database, and when the oldest of them was clicked. */
export interface ClickBacklog {
  clicks: number;
  oldestAt: Date | null;
}

/** One journal (a node's, or `local` on a single node) as the operator sees it. */
export interface JournalStatus {
  /** the journal's name: `local`, or `node:<NODE_NAME>` in cluster mode */
  journal: string;
  /** the writer's committed mark: every journaled click up to it is stored */
  committedSeq: number;
  /** what the journal on this machine holds above the mark; null when the journal is not on this machine */
  backlog: ClickBacklog | null;
  /** clicks per second the writer committed between two readings of the mark; null when not sampled */
  writerRate: number | null;
}

/**
 * The journal's backlog as it lies in `dir`: its records above `mark`, counted, with the first one's
 * click time. Reads at most two segments' size fields and checksums (journal-heads.ts), decoding no
 * click, however long the journal.
 */
export function backlogOnDisk(dir: string, mark: number): ClickBacklog {
  const { clicks, oldestAt } = journalExtent(dir, mark);
  return { clicks, oldestAt: oldestAt === null ? null : new Date(oldestAt) };
}

/**
 * This process's click journal: on one node JOURNAL_DIR (default DATA_DIR/click-journal) with the
 * writer's mark `local`; in cluster mode a directory and a mark per node (NODE_NAME) under it, so
 * each node replays only what it journaled and its mark says only what it committed.
 */
export function clickJournalOf(config: Pick<Config, "journalDir" | "databaseUrl" | "nodeName">): { dir: string; name: string } {
  if (config.databaseUrl === null) return { dir: config.journalDir, name: "local" };
  return { dir: join(config.journalDir, config.nodeName), name: `node:${config.nodeName}` };
}

/** Where the journal named `journal` lives under JOURNAL_DIR: `local` in it, `node:<name>` in its `<name>` directory (the inverse of clickJournalOf). */
function journalDirOf(journalDir: string, journal: string): string {
  return journal.startsWith("node:") ? join(journalDir, journal.slice(5)) : journalDir;
}

/** Every journal's committed mark (the click_journal table), by name. */
async function journalMarks(db: AsyncDb): Promise<Map<string, number>> {
  const { clickJournal } = db.tables;
  const rows = await db.select().from(clickJournal);
  return new Map(rows.map((r) => [r.journal, Number(r.seq)]));
}

/**
 * Each journal's state: its mark, its backlog where its directory is on this machine (under
 * `journalDir`), and the writer's rate, from the marks read before and after `between()` (the
 * command waits a second there) and the clock's time across it. A journal that has left files but
 * no mark yet (its writer never committed) is listed with mark 0.
 */
export async function journalStatus(
  deps: { asyncDb: AsyncDb; clock: Clock },
  journalDir: string,
  between?: () => Promise<void>,
): Promise<JournalStatus[]> {
  const t0 = deps.clock.now().getTime();
  const before = await journalMarks(deps.asyncDb);
  let after = before;
  let ms = 0;
  if (between) {
    await between();
    after = await journalMarks(deps.asyncDb);
    ms = deps.clock.now().getTime() - t0;
  }
  const names = new Set(after.keys());
  if (!before.has("local") && existsSync(journalDir) && journalExtent(journalDir, 0).clicks) names.add("local");
  return [...names].sort().map((journal) => {
    const committedSeq = after.get(journal) ?? 0;
    const dir = journalDirOf(journalDir, journal);
    return {
      journal,
      committedSeq,
      backlog: existsSync(dir) ? backlogOnDisk(dir, committedSeq) : null,
      writerRate: between && ms > 0 ? ((committedSeq - (before.get(journal) ?? 0)) * 1000) / ms : null,
    };
  });
}
