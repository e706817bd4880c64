/**
 * The probes and the drain of a real `bun main.ts`: /livez and /readyz answer 200 while it serves;
 * on SIGTERM /readyz turns 503 first (the load balancer takes the node out) while /livez and every
 * other route still answer; then the listener closes, a request under way (its body still coming)
 * gets its answer, and the process exits 0.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { connect } from "node:net";
import { cleanEnv, ROOT, spawnService } from "../helpers/process";
import { eventually } from "../helpers/eventually";
import { tempDir } from "../helpers/reaper";

setDefaultTimeout(60_000);
const dir = tempDir("linkbot-drain-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const status = async (url: string) => (await fetch(url)).status;

test("SIGTERM: /readyz fails first, then the listener closes, a request under way is answered, and the process exits 0", async () => {
  const svc = spawnService(
    [join(ROOT, "main.ts")],
    cleanEnv({ DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", DRAIN_SECONDS: "2" }),
  );
  try {
    const port = Number((await svc.waitForOutput(/listening on [^:]+:(\d+)/, 30_000))[1]);
    const base = `http://127.0.0.1:${port}`;
    expect([await status(`${base}/livez`), await status(`${base}/readyz`), await status(`${base}/healthz`)]).toEqual([200, 200, 200]);

    // a request under way: its head and half its body sent, the rest held back
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => (answer += d.toString()));
    const body = JSON.stringify({ url: "https://example.com/drained" });
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(
      `POST /api/links HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );

    svc.proc.kill("SIGTERM");
    await svc.waitForOutput(/SIGTERM: shutting down; \/readyz answers 503 for 2 s first/);
    const ready = await fetch(`${base}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([503, { ok: false, error: "draining", message: "This node is shutting down" }]);
    expect([await status(`${base}/livez`), await status(`${base}/healthz`), await status(`${base}/api/links`)]).toEqual([200, 503, 401]);

    await svc.waitForOutput(/closing the listener/);
    await eventually(
      async () =>
        await fetch(`${base}/livez`).then(
          () => false,
          () => true,
        ),
      "the listener to close",
    );
    socket.write(body.slice(10));
    await eventually(() => answer.includes("\r\n\r\n"), "the answer to the request under way");
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 401 Unauthorized");
    socket.destroy();
    expect(await svc.exit()).toBe(0);
    expect(svc.out).toMatch(/stopped/);
  } finally {
    svc.proc.kill("SIGKILL");
  }
});
