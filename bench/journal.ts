/**
 * `bun run bench journal [--clicks N]`: what appending one click to the click journal costs on the
 * request thread, for the two ways of making it outlive a killed process: the mapped segment the
 * service uses (Bun.mmap, shared: a copy into the page cache) and a plain append (`write(2)` of
 * each record to a file opened with O_APPEND: one system call per click). Same records, same
 * encoder; it prints µs per click for each, best of 5 runs.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openClickJournal } from "../core/clicks/journal";
import { MAX_RECORD, encodeRecord } from "../core/clicks/journal-format";
import type { PendingClick } from "../core/clicks/packed";

const { values } = parseArgs({ options: { clicks: { type: "string", default: "300000" } } });
const N = Number(values.clicks);
const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const clicks: PendingClick[] = Array.from({ length: 1000 }, (_, i) => ({
  linkId: 1 + (i % 7),
  clickedAt: new Date(1_700_000_000_000 + i),
  ip: `203.0.113.${i % 250}`,
  userAgent: `${UA} ${i % 40}`,
  referer: i % 3 ? "https://t.me/channel" : null,
  isBot: false,
  botName: null,
}));

function timed(run: () => void): number {
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t0 = Bun.nanoseconds();
    run();
    best = Math.min(best, (Bun.nanoseconds() - t0) / N / 1000);
  }
  return best;
}

const dir = mkdtempSync(join(tmpdir(), "linkbot-journal-bench-"));
try {
  let round = 0;
  const mmap = timed(() => {
    const j = openClickJournal(join(dir, `m${round++}`), 1);
    for (let i = 0; i < N; i++) j.append(clicks[i % 1000]!);
    j.close();
  });
  const scratch = Buffer.alloc(MAX_RECORD);
  const append = timed(() => {
    const fd = openSync(join(dir, `a${round++}`), "a", 0o600);
    for (let i = 0; i < N; i++) writeSync(fd, scratch, 0, encodeRecord(scratch, 0, i + 1, clicks[i % 1000]!));
    closeSync(fd);
  });
  const encodeOnly = timed(() => {
    for (let i = 0; i < N; i++) encodeRecord(scratch, 0, i + 1, clicks[i % 1000]!);
  });
  console.log(`${N} clicks per run, best of 5 (µs per click):`);
  console.log(`  encode only (no file)            ${encodeOnly.toFixed(3)}`);
  console.log(`  mapped segment (Bun.mmap shared) ${mmap.toFixed(3)}`);
  console.log(`  plain append (write(2) per click) ${append.toFixed(3)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
