/**
 * `bun run bench journal [--clicks N]`: what appending one click to the click journal costs on the
 * request thread, for the two ways of making it outlive a killed process: the mapped segment the
 * service uses (Bun.mmap, shared: a copy into the page cache; written out with zeros beforehand, and
 * for comparison left sparse) and a plain append (`write(2)` of each record to a file opened with
 * O_APPEND: one system call per click). Same records, same encoder; it prints µs per click for
 * each, best of 5 runs. Every click's strings are string objects of their own, made before the clock
 * starts, as each request's headers are in the service: the string table hashes each one afresh (a
 * string reused from click to click would be hashed once and cost nothing after). Each way is
 * measured in a process of its own (`--only <way>`): within one process the ways measured later came
 * out up to twice as slow as when measured first.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openClickJournal, type ClickJournal } from "../core/clicks/journal";
import { MAX_RECORD, encodeRecord, recordBuffer, StringTable } from "../core/clicks/journal-format";
import { ClickPacker, type PendingClick } from "../core/clicks/packed";

const { values } = parseArgs({ options: { clicks: { type: "string", default: "300000" }, only: { type: "string" } } });
const N = Number(values.clicks);
const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
/** `s` as a string object of its own, as a request's header value is (decoded from bytes) */
const decoder = new TextDecoder();
const fresh = (s: string) => decoder.decode(Buffer.from(s));
/** N clicks, 1,000 kinds of them (40 agents, 250 addresses), each with strings of its own */
const makeClicks = (): PendingClick[] =>
  Array.from({ length: N }, (_, k) => {
    const i = k % 1000;
    return {
      linkId: 1 + (i % 7),
      clickedAt: new Date(1_700_000_000_000 + i),
      ip: fresh(`203.0.113.${i % 250}`),
      userAgent: fresh(`${UA} ${i % 40}`),
      referer: i % 3 ? fresh("https://t.me/channel") : null,
      isBot: false,
      botName: null,
    };
  });

let clicks: PendingClick[] = [];
async function timed(run: () => number | Promise<number>): Promise<number> {
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    clicks = makeClicks(); // strings no run has hashed yet
    Bun.gc(true); // the previous run's garbage is not this run's time
    best = Math.min(best, (await run()) / N / 1000);
  }
  return best;
}

/** ns spent in `body` alone */
function clocked(body: () => void): number {
  const t0 = Bun.nanoseconds();
  body();
  return Bun.nanoseconds() - t0;
}

/**
 * ns spent on `perClick` for every click, in bursts of 1,000 between which the event loop runs, as
 * in the service (where the next segment is written out in the background meanwhile); only the
 * bursts are timed.
 */
async function bursts(perClick: (c: PendingClick, i: number) => void, between?: () => Promise<void>): Promise<number> {
  let ns = 0;
  for (let i = 0; i < N; i += 1000) {
    ns += clocked(() => {
      for (let k = i; k < i + 1000; k++) perClick(clicks[k]!, k);
    });
    await (between ? between() : Promise.resolve());
  }
  return ns;
}

const dir = mkdtempSync(join(tmpdir(), "linkbot-journal-bench-"));
try {
  let round = 0;
  /** a journal in a fresh directory, its first segment written out (unless sparse) */
  const opened = async (sparse: boolean) => {
    const j = openClickJournal(join(dir, `m${round++}`), 1, { spare: !sparse });
    if (!sparse) await j.spareReady();
    return j;
  };
  const closed = async (j: ClickJournal) => {
    j.close();
    await j.spareReady();
  };
  const mapped = (sparse: boolean) => async () => {
    const j = await opened(sparse);
    const ns = await bursts((c) => void j.append(c), sparse ? undefined : () => j.spareReady());
    await closed(j);
    return ns;
  };
  const scratch = recordBuffer(Buffer.alloc(MAX_RECORD));
  // what the click sink does per click (core/clicks/sink.ts): pack it for the writer, after
  // journaling it or not; the difference is the journal's own cost on the request thread
  const packer = new ClickPacker();
  const pack = (c: PendingClick, seq: number) => {
    packer.add(c, seq);
    if (packer.length === 10_000) packer.take();
  };
  const ways: Record<string, () => Promise<number>> = {
    encode: () => {
      const table = new StringTable();
      return bursts((c, i) => void encodeRecord(scratch, 0, i + 1, c, table));
    },
    mapped: mapped(false),
    sparse: mapped(true),
    append: async () => {
      const fd = openSync(join(dir, `a${round++}`), "a", 0o600);
      const table = new StringTable();
      const ns = await bursts((c, i) => void writeSync(fd, scratch.bytes, 0, encodeRecord(scratch, 0, i + 1, c, table)));
      closeSync(fd);
      return ns;
    },
    pack: () => bursts((c) => pack(c, 0)),
    "journal+pack": async () => {
      const j = await opened(false);
      const ns = await bursts(
        (c) => pack(c, j.append(c)),
        () => j.spareReady(),
      );
      await closed(j);
      return ns;
    },
  };
  if (values.only) {
    const way = ways[values.only];
    if (!way) throw new Error(`--only takes one of ${Object.keys(ways).join(", ")}`);
    console.log(JSON.stringify(await timed(way)));
  } else {
    const us: Record<string, number> = {};
    for (const name of Object.keys(ways)) {
      const child = Bun.spawn(["bun", import.meta.path, "--clicks", String(N), "--only", name], { stdout: "pipe", stderr: "inherit" });
      const out = await new Response(child.stdout).text();
      if ((await child.exited) !== 0) throw new Error(`bench journal --only ${name} failed`);
      us[name] = JSON.parse(out);
    }
    const f = (name: string) => us[name]!.toFixed(3);
    console.log(`${N} clicks per run, best of 5, each way in a process of its own (µs per click):`);
    console.log(`  encode only (no file)             ${f("encode")}`);
    console.log(`  mapped segment (Bun.mmap shared)  ${f("mapped")}`);
    console.log(`  the same, segment left sparse     ${f("sparse")}`);
    console.log(`  plain append (write(2) per click) ${f("append")}`);
    console.log(`the click sink's work per click:`);
    console.log(`  packed for the writer, no journal ${f("pack")}`);
    console.log(
      `  journaled (mapped), then packed   ${f("journal+pack")}  (the journal's own cost: ${(us["journal+pack"]! - us.pack!).toFixed(3)})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
