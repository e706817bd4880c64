/**
 * The interleaving that one shared connection invites once transaction bodies await: while a
 * transaction is open, other work reads and writes. Run against a transaction mechanism, it reports
 * what the other work read; the caller then checks what survived.
 */

/** One side's steps: insert a row by name, read all names. */
interface ProbeSteps {
  insert(name: string): Promise<void>;
  names(): Promise<string[]>;
}

/** The transaction mechanism under test, and the other work's steps outside it. */
export interface Probe extends ProbeSteps {
  transaction(body: (tx: ProbeSteps) => Promise<void>): Promise<void>;
}

class Rollback extends Error {}

/**
 * A transaction inserts "uncommitted", then takes steps (each an await, where other work can run)
 * until the other work has finished or 100 steps have passed, and fails, so it rolls back. The
 * other work starts once the row is inserted: it reads the names and inserts "outside". Correct
 * isolation: the read lacks "uncommitted" and "outside" is kept.
 */
export async function leakProbe(p: Probe): Promise<{ outsideRead: string[] }> {
  let opened!: () => void;
  const isOpen = new Promise<void>((resolve) => (opened = resolve));
  let outsideDone = false;
  const other = (async () => {
    await isOpen;
    const read = await p.names();
    await p.insert("outside");
    outsideDone = true;
    return read;
  })();
  const tx = p
    .transaction(async (s) => {
      await s.insert("uncommitted");
      opened();
      // the other work cannot finish while it waits for this transaction: the step count bounds that case
      for (let i = 0; i < 100 && !outsideDone; i++) await s.names();
      throw new Rollback();
    })
    .catch((e) => {
      if (!(e instanceof Rollback)) throw e;
    });
  const [outsideRead] = await Promise.all([other, tx]);
  return { outsideRead };
}
