/**
 * The image's file system without a container runtime: deploy/Dockerfile is read with dockerfile-ast
 * and its final stage carried out on a directory (WORKDIR, each COPY from the build context, ENV,
 * CMD); the install stage's node_modules is this checkout's (the same lockfile; `--production` only
 * leaves tools out). The service started from that directory with the image's command answers, and
 * the directory holds no tests and no local .env.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { DockerfileParser } from "dockerfile-ast";
import { cleanEnv, ROOT, spawnService } from "../helpers/process";
import { tempDir } from "../helpers/reaper";

setDefaultTimeout(90_000);
const dir = tempDir("linkbot-image-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Carries out the Dockerfile's final stage under `root` (the image's /); returns its workdir, environment and command. */
function assemble(root: string): { workdir: string; env: Record<string, string>; cmd: string[] } {
  const file = DockerfileParser.parse(readFileSync(join(ROOT, "deploy/Dockerfile"), "utf8"));
  const lastFrom = file.getFROMs().at(-1)!.getRange().start.line;
  let workdir = "/";
  const env: Record<string, string> = {};
  let cmd: string[] = [];
  for (const i of file.getInstructions().filter((i) => i.getRange().start.line >= lastFrom)) {
    const keyword = i.getKeyword().toUpperCase();
    const args = i.getArguments().map((a) => a.getValue());
    if (keyword === "WORKDIR") mkdirSync(join(root, (workdir = args[0]!)), { recursive: true });
    else if (keyword === "ENV")
      for (const p of file
        .getENVs()
        .find((e) => e.getRange().start.line === i.getRange().start.line)!
        .getProperties())
        env[p.getName()] = p.getValue() ?? "";
    else if (keyword === "CMD") cmd = JSON.parse(i.getArgumentsContent()!);
    else if (keyword === "COPY") {
      const from = file
        .getCOPYs()
        .find((c) => c.getRange().start.line === i.getRange().start.line)!
        .getFromFlag();
      const paths = args.filter((a) => !a.startsWith("--"));
      const dest = join(root, paths.at(-1)!.startsWith("/") ? "" : workdir, paths.at(-1)!);
      if (from) {
        // the install stage's /app/node_modules: this checkout's, installed from the same lockfile
        symlinkSync(join(ROOT, "node_modules"), dest);
        continue;
      }
      for (const src of paths.slice(0, -1)) {
        const target = paths.length > 2 || dest.endsWith("/") ? join(dest, src.split("/").at(-1)!) : dest;
        cpSync(join(ROOT, src), target, { recursive: true });
      }
    }
  }
  return { workdir: join(root, workdir), env, cmd };
}

test("the image's file system, assembled as the Dockerfile says, starts the service and holds no tests or .env", async () => {
  const root = join(dir, "image");
  const { workdir, env, cmd } = assemble(root);
  expect(cmd[0]).toBe("bun");
  expect(existsSync(join(workdir, "main.ts"))).toBe(true);
  for (const absent of ["test", "bench", "docs", ".env", ".git", "scripts"])
    expect([absent, existsSync(join(workdir, absent))]).toEqual([absent, false]);

  const data = join(dir, "data");
  // the image's environment, with this machine's address and a data directory of the test's own
  const svc = spawnService(cmd.slice(1), cleanEnv({ ...env, HOST: "127.0.0.1", PORT: "0", DATA_DIR: data, LOG_LEVEL: "info" }), workdir);
  try {
    const port = Number((await svc.waitForOutput(/listening on [^:]+:(\d+)/, 60_000))[1]);
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/livez`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    // the mini-app's page is built from the sources the image holds
    expect((await fetch(`${base}/app/`)).status).toBe(200);
    expect(existsSync(join(data, "click-journal"))).toBe(true);
  } finally {
    svc.proc.kill("SIGTERM");
  }
  expect(await svc.exit()).toBe(0);
});
