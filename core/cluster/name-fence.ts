/**
 * The fencing side of a node's hold on its NODE_NAME in cluster mode. The advisory lock
 * (node-name.ts) ends with its database session, so after a PostgreSQL restart a second process
 * could take a name whose holder is still running and about to reconnect. The row of the name's
 * journal (`click_journal`, `node:<NODE_NAME>`) therefore also records who holds it: the id of the
 * holder's journal directory, a generation that goes up at each start that takes the name (the
 * fencing token), and the holder's last heartbeat.
 *
 * - A start finds the row held by another journal whose heartbeat is younger than HOLD_SECONDS
 *   (counted from the database server's own start, so a holder cut off by a restart gets that long
 *   to come back): it is refused. A holder that stopped cleanly let the name go (no heartbeat).
 * - Otherwise it takes the name with the next generation. When it was another journal's, that
 *   journal's mark is set aside (`node:<NODE_NAME>@<its id>`) and this journal's own mark, if one was
 *   set aside earlier, comes back: each journal's clicks are marked against its own numbers, so
 *   neither is skipped as "stored already".
 * - The writer marks only while the row still has its journal and generation, in the batch's
 *   transaction (writer-pg.ts): two holders can never both commit. A holder whose heartbeat finds
 *   the row taken stops (it is fenced): its clicks stay in its journal.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SQL } from "bun";

/** How long a holder's last heartbeat keeps its name from another journal. */
const HOLD_SECONDS = 30;

/** The file in a journal directory that holds its id (the journal reads only its segment files). */
const HOLDER_FILE = "node.id";

/** The id of the journal in `dir`, made when missing. */
export function journalHolderId(dir: string): string {
  const path = join(dir, HOLDER_FILE);
  try {
    const id = readFileSync(path, "utf8").trim();
    if (id) return id;
  } catch {}
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const id = randomUUID();
  writeFileSync(path, `${id}\n`, { mode: 0o600 });
  return id;
}

/** The id of the journal in `dir` when it has one (a writer never makes one: only a start that takes the name does). */
export function existingHolderId(dir: string): string | undefined {
  try {
    return readFileSync(join(dir, HOLDER_FILE), "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the name's row for the journal `me` (see above); the generation taken, or the reason it is
 * refused.
 */
export async function takeNameRow(conn: SQL, journal: string, me: string): Promise<{ generation: number } | { refused: string }> {
  return conn.begin(async (tx) => {
    await tx`insert into click_journal (journal, seq, generation) values (${journal}, 0, 0) on conflict (journal) do nothing`;
    // a name let go (held_at null) is free; a hold is counted from the server's start at the earliest
    const [row] =
      await tx`select seq, holder, case when held_at is null then null else extract(epoch from now() - greatest(held_at, pg_postmaster_start_time()))::float8 end as idle
      from click_journal where journal = ${journal} for update`;
    const holder = row.holder as string | null;
    let seq = Number(row.seq);
    if (holder !== null && holder !== me) {
      const idle = row.idle === null ? null : Number(row.idle);
      if (idle !== null && idle < HOLD_SECONDS)
        return { refused: `another node held it ${Math.round(idle)} s ago (its hold lasts ${HOLD_SECONDS} s after its last heartbeat)` };
      await tx`insert into click_journal (journal, seq, generation) values (${`${journal}@${holder}`}, ${seq}, 0)
        on conflict (journal) do update set seq = greatest(click_journal.seq, excluded.seq)`;
      const [own] = await tx`delete from click_journal where journal = ${`${journal}@${me}`} returning seq`;
      if (own) seq = Number(own.seq);
    }
    const [taken] = await tx`update click_journal set holder = ${me}, generation = generation + 1, held_at = now(), seq = ${seq}
      where journal = ${journal} returning generation`;
    return { generation: Number(taken.generation) };
  });
}

/** A holder that stops lets its name go at once (its mark stays its own: see takeNameRow). */
export async function letGo(conn: SQL, journal: string, me: string, generation: number): Promise<void> {
  await conn`update click_journal set held_at = null where journal = ${journal} and holder = ${me} and generation = ${generation}`;
}

/** The holder's heartbeat: true while the row is still this journal's at `generation`; throws when the database cannot be reached. */
export async function heartbeat(conn: SQL, journal: string, me: string, generation: number): Promise<boolean> {
  const rows = await conn`update click_journal set held_at = now()
    where journal = ${journal} and holder = ${me} and generation = ${generation} returning generation`;
  return rows.length > 0;
}
