/**
 * `bun run bench journal [--clicks N]`: what appending one click to the click journal costs on the
 * request thread, for the two ways of making it outlive a killed process: the mapped segment the
 * service uses (Bun.mmap, shared: a copy into the page cache; written out with zeros beforehand, and
 * for comparison left sparse) and a plain append (`write(2)` of each record to a file opened with
 * O_APPEND: one system call per click). Same records, same encoder; it prints µs per click for
 * each, best of 5 runs.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openClickJournal } from "../core/clicks/journal";
import { MAX_RECORD, encodeRecord, StringTable } from "../core/clicks/journal-format";
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

async function timed(run: () => number | Promise<number>): Promise<number> {
  let best = Infinity;
  for (let r = 0; r < 5; r++) best = Math.min(best, (await run()) / N / 1000);
  return best;
}

/** ns spent in `body` alone */
function clocked(body: () => void): number {
  const t0 = Bun.nanoseconds();
  body();
  return Bun.nanoseconds() - t0;
}

const dir = mkdtempSync(join(tmpdir(), "linkbot-journal-bench-"));
try {
  let round = 0;
  // as in the service: appends come in bursts between which the event loop runs (and the next
  // segment is written out in the background); only the appends are timed
  const mapped = (sparse: boolean) => async () => {
    const j = openClickJournal(join(dir, `m${round++}`), 1, { spare: !sparse });
    if (!sparse) await j.spareReady();
    let ns = 0;
    for (let i = 0; i < N; i += 1000) {
      ns += clocked(() => {
        for (let k = i; k < i + 1000; k++) j.append(clicks[k % 1000]!);
      });
      if (!sparse) await j.spareReady();
    }
    j.close();
    await j.spareReady();
    return ns;
  };
  const mmap = await timed(mapped(false));
  const sparseMmap = await timed(mapped(true));
  const scratch = Buffer.alloc(MAX_RECORD);
  const append = await timed(() => {
    const fd = openSync(join(dir, `a${round++}`), "a", 0o600);
    const table = new StringTable();
    const ns = clocked(() => {
      for (let i = 0; i < N; i++) writeSync(fd, scratch, 0, encodeRecord(scratch, 0, i + 1, clicks[i % 1000]!, table));
    });
    closeSync(fd);
    return ns;
  });
  const encodeOnly = await timed(() => {
    const table = new StringTable();
    return clocked(() => {
      for (let i = 0; i < N; i++) encodeRecord(scratch, 0, i + 1, clicks[i % 1000]!, table);
    });
  });
  console.log(`${N} clicks per run, best of 5 (µs per click):`);
  console.log(`  encode only (no file)            ${encodeOnly.toFixed(3)}`);
  console.log(`  mapped segment (Bun.mmap shared) ${mmap.toFixed(3)}`);
  console.log(`  the same, segment left sparse    ${sparseMmap.toFixed(3)}`);
  console.log(`  plain append (write(2) per click) ${append.toFixed(3)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
