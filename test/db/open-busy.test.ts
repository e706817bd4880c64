import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDb } from "../../db/client";

// it starts another bun process, which a loaded machine may take seconds to start
setDefaultTimeout(30_000);

/**
 * Opening the database waits out a lock another process holds for a moment (the last connection of
 * another process checkpointing as it closes, a CLI command's write), as every later statement does,
 * instead of failing the start with "database is locked": the busy timeout is set before the first
 * statement that reads the file.
 */
test("a database another process holds locked for a moment opens once the lock is gone, not with 'database is locked'", async () => {
  const dir = mkdtempSync(join(tmpdir(), "linkbot-open-busy-"));
  try {
    const path = join(dir, "app.db");
    // another process makes the database, takes its exclusive lock, says so, and lets go 400 ms later
    const holder = Bun.spawn(
      [
        "bun",
        "-e",
        `
      const { Database } = require("bun:sqlite");
      const db = new Database(${JSON.stringify(path)}, { create: true });
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA locking_mode = EXCLUSIVE");
      db.exec("BEGIN EXCLUSIVE");
      db.exec("create table held (x)");
      db.exec("insert into held values (1)");
      console.log("locked");
      await Bun.sleep(400);
      db.exec("COMMIT");
      db.close();
    `,
      ],
      { stdout: "pipe", stderr: "inherit" },
    );
    const reader = holder.stdout.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("locked");
    const started = performance.now();
    const opened = createDb(path); // threw "database is locked" at once when the timeout came after the first pragma
    expect(performance.now() - started).toBeGreaterThan(100); // it waited for the holder
    expect(opened.sqlite.query("select x from held").get()).toEqual({ x: 1 }); // what the holder committed
    opened.close();
    expect(await holder.exited).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
