/**
 * `bun run bench click-writer [--batches 40] [--links 1,4,20] [--repeat 3] [--postgres]`: what the
 * click writer spends per click on SQLite, or on a PostgreSQL server the run starts as the test
 * suite does (one transaction per batch of 10,000, as the writer thread takes them: the clicks, the
 * visitors, the counters and every listener), by how many links the clicks of a batch are spread
 * over (taken in turn, as traffic to several links comes), with the click id index (`id`, as the
 * service has it) and without it (`none`), for what that index costs. Each run is a process of its
 * own on a fresh database, each layout `--repeat` times in a rotating order; it prints the median µs
 * per click over the batches after the first ten (`--batches` must be above 10), the median of the
 * runs. Prints figures; never fails on speed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    batches: { type: "string", default: "40" },
    links: { type: "string", default: "1,4,20" },
    repeat: { type: "string", default: "3" },
    child: { type: "string" },
    postgres: { type: "boolean", default: false },
    "database-url": { type: "string" },
  },
});
const BATCH = 10_000;
/** batches a run writes before those it counts (the first one meets every visitor new) */
const WARM_UP = 10;
const LAYOUTS = ["id", "none"] as const;
type Layout = (typeof LAYOUTS)[number];

/**
 * One measurement: `links` links, click id index `layout`, on SQLite or (`databaseUrl`) on a fresh
 * PostgreSQL database through its click writer; µs per click (median) for the whole write.
 */
async function measure(links: number, layout: Layout, batches: number, databaseUrl?: string): Promise<{ write: number }> {
  const { loadConfig } = await import("../config");
  const { clickWriterOf, openDeps } = await import("../app");
  const { silentLogger } = await import("../core/log");
  const { ClickPacker } = await import("../core/clicks/packed");
  const { clickPrefix, nextClickNo } = await import("../core/clicks/click-id");
  const { rawSql } = await import("../test/helpers/app");
  const dataDir = mkdtempSync(join(tmpdir(), "bench-click-writer-"));
  try {
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: "error",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, NODE_NAME: "bench" } : {}),
    });
    const deps = await openDeps(config, { log: silentLogger, journalDir: null });
    const db = deps.asyncDb;
    const [user] = await db.insert(db.tables.users).values({ username: "bench" }).returning();
    const ids: number[] = [];
    for (let i = 0; i < links; i++) {
      const [link] = await db
        .insert(db.tables.links)
        .values({ userId: user!.id, code: `bench${i}`, url: "https://example.com/" })
        .returning();
      ids.push(link!.id);
    }
    if (layout === "none") await rawSql(db, "drop index clicks_click_id");
    const writer = clickWriterOf(deps);
    const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
    let seq = 1;
    const times: number[] = [];
    for (let b = 0; b < batches; b++) {
      const packer = new ClickPacker();
      for (let i = 0; i < BATCH; i++) {
        const clickNo = nextClickNo();
        packer.add(
          {
            linkId: ids[i % links]!,
            clickedAt: new Date(),
            ip: `10.0.${(i >> 8) & 255}.${i & 255}`,
            userAgent: UA,
            referer: null,
            isBot: false,
            botName: null,
            clickPrefix: clickPrefix(),
            clickNo,
          },
          seq++,
        );
      }
      const batch = packer.take();
      const started = performance.now();
      await writer.write(batch);
      times.push(((performance.now() - started) / BATCH) * 1000);
    }
    await deps.handle.close();
    const kept = times.slice(WARM_UP).sort((a, b) => a - b);
    return { write: kept[Math.floor(kept.length / 2)]! };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const batches = Number(values.batches);
  // the first WARM_UP batches of a run are not counted: at least one more is
  if (!Number.isInteger(batches) || batches <= WARM_UP) {
    console.error(`--batches takes a whole number above ${WARM_UP} (the first ${WARM_UP} of a run are not counted), not ${values.batches}`);
    process.exit(2);
  }
  if (values.child) {
    const [links, layout] = values.child.split(":");
    console.log(JSON.stringify(await measure(Number(links), layout as Layout, batches, values["database-url"])));
    return;
  }
  const counts = values.links.split(",").map(Number);
  const repeat = Number(values.repeat);
  // on PostgreSQL: one server for the whole run, a fresh database for each measurement
  const pg = values.postgres ? await (await import("../test/helpers/postgres")).startPostgres() : null;
  console.log(
    `click writer on ${pg ? "PostgreSQL" : "SQLite"}: ${batches} batches of ${BATCH.toLocaleString("en")} clicks, µs per click (each run's median after its first ${WARM_UP} batches; the median of ${repeat} runs)`,
  );
  for (const links of counts) {
    const runs: Record<Layout, number[]> = { id: [], none: [] };
    // the layouts in a rotating order, so that neither always runs first
    for (let round = 0; round < repeat; round++)
      for (let j = 0; j < LAYOUTS.length; j++) {
        const layout = LAYOUTS[(round + j) % LAYOUTS.length]!;
        const where = pg ? ["--database-url", await pg.createDatabase()] : [];
        const child = Bun.spawn(["bun", import.meta.path, "--batches", String(batches), "--child", `${links}:${layout}`, ...where], {
          stderr: "inherit",
        });
        const out = await new Response(child.stdout).text();
        if ((await child.exited) !== 0) throw new Error(`the run with ${links} links, index ${layout} failed`);
        runs[layout].push((JSON.parse(out) as { write: number }).write);
      }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const [id, none] = LAYOUTS.map((l) => median(runs[l]));
    console.log(
      `  ${String(links).padStart(2)} links: ${id!.toFixed(2)} µs per click; without the click id index ${none!.toFixed(2)}` +
        ` (the index ${id! < none! ? "" : "+"}${(id! - none!).toFixed(2)})`,
    );
  }
  await pg?.stop();
}

await main();
