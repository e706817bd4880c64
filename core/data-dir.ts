/**
 * DATA_DIR holds the database (with webhook signing secrets and hashed credentials), the generated
 * JWT secret and the stored files of secure sharing: readable by the service's user only.
 */
import { chmodSync, closeSync, existsSync, lstatSync, openSync, readdirSync } from "node:fs";
import { join } from "node:path";

export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

/**
 * Takes group and world access away from `dir` and everything in it (directories 0700, files 0600),
 * so an installation that began with looser modes is tightened at the next start. Symbolic links are
 * left alone (their target may live elsewhere). Files created later get these modes where they are
 * created: SQLite gives its -wal and -shm files the database file's mode.
 */
export function lockDownDataDir(dir: string): void {
  chmodSync(dir, PRIVATE_DIR);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) lockDownDataDir(path);
    else if (stat.isFile() && (stat.mode & 0o077) !== 0) chmodSync(path, stat.mode & PRIVATE_FILE);
  }
}

/**
 * Creates `path` empty with mode 0600 unless it exists, so SQLite never creates it world-readable.
 * An existing file is not opened at all: POSIX drops every lock a process holds on a file when any
 * descriptor of that file in the process closes, so opening and closing a database file that a
 * connection of this process already has open (the click writer thread starts after the main
 * connection) would silently drop SQLite's locks. An outside reader (`sqlite3 app.db .backup`)
 * would then take the database for unused, checkpoint and delete the live WAL, and a crash would
 * lose every write since.
 */
export function createPrivateFile(path: string): void {
  if (existsSync(path)) return;
  closeSync(openSync(path, "a", PRIVATE_FILE));
}
