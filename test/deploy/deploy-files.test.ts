/**
 * The container files, as far as a machine without Docker can check them (scripts/check-deploy.ts,
 * also run by .ci/run): the shipped ones pass, and each mistake the check exists for is caught.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkCompose, checkDockerfile } from "../../scripts/check-deploy";
import { startCommand } from "../../scripts/start-command";
import { ROOT, run, cleanEnv } from "../helpers/process";

const deploy = join(ROOT, "deploy");
const dockerfile = readFileSync(join(deploy, "Dockerfile"), "utf8");
const compose = readFileSync(join(deploy, "compose.yaml"), "utf8");
const haproxy = readFileSync(join(deploy, "haproxy.cfg"), "utf8");

test("the shipped Dockerfile and compose file pass, and the script says so", async () => {
  expect(checkDockerfile(dockerfile)).toEqual([]);
  expect(checkCompose(compose, haproxy)).toEqual([]);
  const r = await run([join(ROOT, "scripts/check-deploy.ts")], cleanEnv());
  expect([r.code, r.stderr, r.stdout.trim()]).toEqual([0, "", "deploy/Dockerfile and deploy/compose.yaml: parsed and checked"]);
}, 30_000); // it starts a bun process

test("a Dockerfile's mistakes are named", () => {
  expect(checkDockerfile(dockerfile.replace("WORKDIR /app\nENV", "WORKDIRR /app\nENV"))).toEqual([
    expect.stringMatching(/^Dockerfile:\d+: unknown instruction WORKDIRR$/),
  ]);
  expect(checkDockerfile(dockerfile.replace("USER bun", "USER root"))).toEqual([
    "Dockerfile: the final image must switch to a user other than root (USER)",
  ]);
  expect(checkDockerfile(dockerfile.replace(/\/livez/g, "/healthz"))).toEqual([
    "Dockerfile: the final image needs a HEALTHCHECK on /livez",
  ]);
  expect(checkDockerfile(dockerfile.replace(/FROM oven\/bun:1.4.5\n/, "FROM node:22\n"))).toEqual([
    expect.stringMatching(/FROM node is not Bun's official image/),
  ]);
  expect(checkDockerfile(dockerfile.replace(/FROM oven\/bun:1.4.5\n/, "FROM oven/bun:1.4\n"))).toEqual([
    expect.stringMatching(/FROM oven\/bun:1.4 is a floating tag; name an exact release/),
  ]);
  expect(checkDockerfile(dockerfile.replace("COPY api ./api", "COPY . ."))).toEqual([
    expect.stringMatching(/COPY \. copies the whole context \(tests, a local .env\); name what the service runs$/),
  ]);
  expect(checkDockerfile(dockerfile.replace(`CMD ["bun", "--max`, `CMD ["bun", --max`))).toEqual([
    expect.stringMatching(/CMD's exec form is not a JSON array of strings$/),
  ]);
  expect(checkDockerfile(dockerfile.replace("COPY package.json bun.lock", "COPY package.json bun.lockb"))).toEqual([
    expect.stringMatching(/COPY source bun.lockb does not exist$/),
  ]);
});

test("the image runs the service as `bun start` does: the same command, the same start variables", () => {
  const start = startCommand();
  // the allocator keeps freed memory for reuse (docs/links.md, "The allocator")
  expect(start.env).toEqual({ MIMALLOC_PURGE_DELAY: "-1" });
  expect(start.argv).toEqual(["bun", "--max-http-header-size=1048576", "main.ts"]);
  expect(checkDockerfile(dockerfile.replace("    MIMALLOC_PURGE_DELAY=-1\n", "    MIMALLOC_PURGE_DELAY=10\n"))).toEqual([
    "Dockerfile: ENV MIMALLOC_PURGE_DELAY is 10, but `bun start` sets MIMALLOC_PURGE_DELAY=-1",
  ]);
  expect(checkDockerfile(dockerfile.replace(" \\\n    MIMALLOC_PURGE_DELAY=-1\n", "\n"))).toEqual([
    "Dockerfile: ENV MIMALLOC_PURGE_DELAY is not set, but `bun start` sets MIMALLOC_PURGE_DELAY=-1",
  ]);
  expect(checkDockerfile(dockerfile.replace(`CMD ["bun", "--max-http-header-size=1048576", "main.ts"]`, `CMD ["bun", "main.ts"]`))).toEqual(
    ['Dockerfile: CMD runs ["bun","main.ts"], not what `bun start` runs (["bun","--max-http-header-size=1048576","main.ts"])'],
  );
});

test("a compose file's mistakes are named", () => {
  expect(checkCompose("services: [", haproxy)[0]).toStartWith("compose.yaml: not YAML:");
  const noNode3 = compose.replace(/\n {2}node3:[\s\S]*?(?=\n {2}haproxy:)/, "");
  expect(checkCompose(noNode3, haproxy)).toEqual([
    "compose.yaml: no service node3",
    "compose.yaml: 2 nodes with a DATABASE_URL, not three",
    "compose.yaml: haproxy.cfg's server node3 (10.0.0.13:3000) is no node of this file",
  ]);
  expect(checkCompose(compose.replace("image: postgres:15", "image: postgres:17"), haproxy)).toEqual([
    "compose.yaml: postgres runs postgres:17, not PostgreSQL 15 as the tests do",
  ]);
  expect(checkCompose(compose.replace("NODE_NAME: node2", "NODE_NAME: node1"), haproxy)).toEqual([
    "compose.yaml: NODE_NAME node1 is used twice",
  ]);
  expect(checkCompose(compose.replace("ipv4_address: 10.0.0.12", "ipv4_address: 10.0.0.22"), haproxy)).toEqual([
    "compose.yaml: haproxy.cfg's server node2 (10.0.0.12:3000) is no node of this file",
  ]);
});
