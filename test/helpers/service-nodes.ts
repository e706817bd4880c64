import { afterAll, beforeAll } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { startPostgres, type PgServer } from "./postgres";
import { cleanEnv, ROOT, spawnService } from "./process";
import { freePort } from "./free-port";
import { tempDir } from "./reaper";
import { FakeBotApi, FAKE_BOT_TOKEN } from "./fake-bot-api";

/** A `bun main.ts` node of a cluster test: its process (output, exit), name, port and base URL. */
export type ServiceNode = ReturnType<typeof spawnService> & { name: string; port: number; url: string };

/** What serviceNodesForFile starts: read its fields inside tests (they are set before the first). */
export interface ServiceNodes {
  pg: PgServer;
  bot: FakeBotApi;
  /** the nodes' shared DATA_DIR (their journals are JOURNAL_DIR/<name> under it) */
  dir: string;
  nodes: ServiceNode[];
}

/**
 * For the test file that calls it: PostgreSQL, a fake Bot API and one `bun main.ts` node per name,
 * all sharing one DATA_DIR, started before its tests (the first node alone, as it migrates the
 * database, the others then at once) and killed after them. `env` adds to each node's environment
 * (given its port); `after` runs once the nodes listen (a proxy in front of them), `stop` before
 * they are killed.
 */
export function serviceNodesForFile(
  prefix: string,
  names: string[],
  opts: { env?: (port: number) => Record<string, string>; after?: (s: ServiceNodes) => Promise<void>; stop?: () => unknown } = {},
): ServiceNodes {
  const s = { nodes: [] as ServiceNode[] } as ServiceNodes;
  async function startNode(name: string): Promise<ServiceNode> {
    const port = await freePort();
    const env = cleanEnv({
      DATABASE_URL: s.pg.url,
      NODE_NAME: name,
      DATA_DIR: s.dir,
      PORT: String(port),
      HOST: "127.0.0.1",
      BOT_TOKEN: FAKE_BOT_TOKEN,
      BOT_API_ROOT: s.bot.url,
      LOG_LEVEL: "info",
      ...opts.env?.(port),
    });
    const svc = spawnService([join(ROOT, "main.ts")], env);
    await svc.waitForOutput(/HTTP server listening/, 60_000);
    return Object.assign(svc, { name, port, url: `http://127.0.0.1:${port}` });
  }
  beforeAll(async () => {
    s.pg = await startPostgres();
    s.dir = tempDir(prefix);
    s.bot = new FakeBotApi();
    s.bot.start();
    const [first, ...rest] = names;
    s.nodes.push(await startNode(first!));
    s.nodes.push(...(await Promise.all(rest.map(startNode))));
    await opts.after?.(s);
  });
  afterAll(async () => {
    for (const n of s.nodes) n.proc.kill("SIGKILL");
    await Promise.all([...s.nodes.map((n) => n.proc.exited), opts.stop?.()]);
    await s.bot?.stop();
    await s.pg?.stop();
    if (s.dir) rmSync(s.dir, { recursive: true, force: true });
  });
  return s;
}
