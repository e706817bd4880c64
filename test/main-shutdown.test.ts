import { expect, test, setDefaultTimeout } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDb } from "../db/client";
import { clicks, links, users } from "../db/schema";
import { cleanUpAtExit } from "./helpers/reaper";

// this file spawns processes or a browser: more than bun's 5 s default on a busy machine
setDefaultTimeout(30_000);

const ROOT = join(import.meta.dir, "..");

test("the service flushes pending clicks on SIGTERM before closing the database", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "linkbot-shutdown-"));
  try {
    const setup = createDb(join(dataDir, "app.db"));
    const user = setup.db.insert(users).values({ username: "u", createdAt: new Date() }).returning().get();
    const link = setup.db
      .insert(links)
      .values({ userId: user.id, code: "shutdown1", url: "https://ok.example/", createdAt: new Date(), updatedAt: new Date() })
      .returning()
      .get();
    setup.close();

    const proc = Bun.spawn(["bun", "main.ts"], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", BOT_TOKEN: "" },
      stdout: "pipe",
      stderr: "pipe",
    });
    cleanUpAtExit({ kill: proc.pid }); // killed if this run ends first
    const reader = proc.stdout.getReader();
    let out = "";
    let port = 0;
    const deadline = Date.now() + 15_000;
    while (!port && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
      port = Number(/listening on [^:]+:(\d+)/.exec(out)?.[1] ?? 0);
    }
    expect(port).toBeGreaterThan(0);
    const visits = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`http://127.0.0.1:${port}/shutdown1`, {
          redirect: "manual",
          headers: { "user-agent": `Mozilla/5.0 (X11; Linux x86_64) Firefox/${100 + i}.0` },
        }),
      ),
    );
    expect(visits.every((r) => r.status === 302)).toBe(true);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);

    const check = createDb(join(dataDir, "app.db"));
    expect(check.db.select().from(clicks).all()).toHaveLength(40);
    expect(check.db.select().from(links).get()).toMatchObject({ id: link.id, totalClicks: 40, uniqueClicks: 40 });
    check.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 30_000); // spawns `bun main.ts`, which takes seconds to start on a busy machine
