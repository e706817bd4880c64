/**
 * `bun run bench click-writer [--batches 40] [--links 1,4,20] [--repeat 3]`: what the click writer
 * spends per click on SQLite (one transaction per batch of 10,000, as the writer thread takes them:
 * the INSERT, the visitors, the counters and every listener), by how many links the clicks of a
 * batch are spread over (taken in turn, as traffic to several links comes), with the click id index
 * (`id`, as the service has it) and without it (`none`), for what that index costs. Each run is a
 * process of its own on a fresh data directory, each layout `--repeat` times in a rotating order; it
 * prints the median µs per click over the batches after the first ten, the median of the runs.
 * Prints figures; never fails on speed.
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
  },
});
const BATCH = 10_000;
const LAYOUTS = ["id", "none"] as const;
type Layout = (typeof LAYOUTS)[number];

/** One measurement: `links` links, click id index `layout`; µs per click (median) for the whole write. */
async function measure(links: number, layout: Layout, batches: number): Promise<{ write: number }> {
  const { loadConfig } = await import("../config");
  const { createDeps } = await import("../app");
  const { silentLogger } = await import("../core/log");
  const { createClickWriter } = await import("../core/clicks/writer");
  const { CLICK_LISTENERS } = await import("../app/click-listeners");
  const { ClickPacker } = await import("../core/clicks/packed");
  const { clickPrefix, nextClickNo } = await import("../core/clicks/click-id");
  const schema = await import("../db/schema");
  const dataDir = mkdtempSync(join(tmpdir(), "bench-click-writer-"));
  try {
    const deps = createDeps(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error" }), { log: silentLogger });
    const user = deps.db.insert(schema.users).values({ username: "bench" }).returning().get();
    const ids = Array.from(
      { length: links },
      (_, i) =>
        deps.db
          .insert(schema.links)
          .values({ userId: user.id, code: `bench${i}`, url: "https://example.com/" })
          .returning()
          .get().id,
    );
    if (layout === "none") deps.db.$client.run("drop index clicks_click_id");
    const writer = createClickWriter({ asyncDb: deps.asyncDb, clock: deps.clock, geo: deps.geo, db: deps.db }, CLICK_LISTENERS);
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
    deps.handle.close();
    const kept = times.slice(10).sort((a, b) => a - b);
    return { write: kept[Math.floor(kept.length / 2)]! };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const batches = Number(values.batches);
  if (values.child) {
    const [links, layout] = values.child.split(":");
    console.log(JSON.stringify(await measure(Number(links), layout as Layout, batches)));
    return;
  }
  const counts = values.links.split(",").map(Number);
  const repeat = Number(values.repeat);
  console.log(
    `click writer on SQLite: ${batches} batches of ${BATCH.toLocaleString("en")} clicks, µs per click (each run's median after its first 10 batches; the median of ${repeat} runs)`,
  );
  for (const links of counts) {
    const runs: Record<Layout, number[]> = { id: [], none: [] };
    // the layouts in a rotating order, so that neither always runs first
    for (let round = 0; round < repeat; round++)
      for (let j = 0; j < LAYOUTS.length; j++) {
        const layout = LAYOUTS[(round + j) % LAYOUTS.length]!;
        const child = Bun.spawn(["bun", import.meta.path, "--batches", String(batches), "--child", `${links}:${layout}`], {
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
}

await main();
