/**
 * What a node on PostgreSQL tells its operator, before and while the database is away: which build it
 * runs, whether it reaches its database and holds its name, the outbox's depth (the last figure read,
 * marked as such, while it cannot be read); and its log: every stdout line one JSON object naming the
 * node, the driver's own LISTEN complaints among them as JSON, the health check's warning a few
 * times, not once per probe.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { cleanEnv, ROOT, spawnService } from "../helpers/process";
import { postgresForFile } from "../helpers/postgres";
import { parsePrometheus, sampleOf } from "../helpers/prometheus";
import { eventually } from "../helpers/eventually";
import pkg from "../../package.json" with { type: "json" };

setDefaultTimeout(90_000);
const server = postgresForFile();

test("while PostgreSQL is away: the gauges say so, outbox_depth keeps its last figure marked stale, and every log line is JSON naming its node", async () => {
  const url = await server.pg.createDatabase();
  const node = spawnService(
    [join(ROOT, "main.ts")],
    cleanEnv({
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: url,
      DATA_DIR: server.tmp("linkbot-signals-"),
      NODE_NAME: "sig-1",
      LOG_LEVEL: "info",
    }),
  );
  try {
    const base = `http://127.0.0.1:${Number((await node.waitForOutput(/listening on [^:]+:(\d+)/, 60_000))[1])}`;
    const scrape = async () => parsePrometheus(await (await fetch(`${base}/metrics`)).text());
    let m = await scrape();
    expect(m.find((s) => s.name === "linkbot_build_info")).toMatchObject({ labels: { version: pkg.version, bun: Bun.version }, value: 1 });
    expect([
      sampleOf(m, "linkbot_database_reachable"),
      sampleOf(m, "linkbot_node_name_held"),
      sampleOf(m, "linkbot_outbox_depth", { status: "pending" }),
      sampleOf(m, "linkbot_outbox_depth_stale"),
    ]).toEqual([1, 1, 0, 0]);

    await server.pg.halt();
    try {
      m = await scrape();
      expect([
        sampleOf(m, "linkbot_database_reachable"),
        sampleOf(m, "linkbot_outbox_depth", { status: "pending" }),
        sampleOf(m, "linkbot_outbox_depth_stale"),
      ]).toEqual([0, 0, 1]);
      // a load balancer probing every moment: the warning is written once, the repeats counted
      for (let i = 0; i < 10; i++) expect((await fetch(`${base}/readyz`)).status).toBe(503);
      // the driver retries its LISTEN about once a second: its complaint comes through the JSON log
      await eventually(() => node.out.includes('"msg":"database driver: LISTEN'), "the driver's LISTEN complaint in the log", 20_000);
    } finally {
      await server.pg.resume();
    }
    const lines = node.out.split("\n").filter(Boolean);
    const notJson = lines.filter((l) => {
      try {
        return (JSON.parse(l) as { node?: string }).node !== "sig-1";
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    expect(lines.filter((l) => l.includes("health check: the database did not answer")).length).toBeLessThanOrEqual(2);
    expect(node.err).not.toContain("bun:sql");
  } finally {
    node.proc.kill("SIGTERM");
  }
  expect(await node.exit()).toBe(0);
});
