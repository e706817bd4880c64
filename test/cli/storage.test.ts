/**
 * `bun run cli storage migrate --to <driver>` as an operator runs it: a populated local store (a
 * node on PostgreSQL with FILE_STORAGE=local) moves into the database, each file verified by
 * SHA-256, and every file reads back through another node that has none of them on disk; then on
 * into S3. A copy that does not match its source is never switched to.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, run } from "../helpers/process";
import { startPostgres, type PgServer } from "../helpers/postgres";
import { startS3Server, type S3Server } from "../helpers/s3-server";
import { share, startApiNode, userToken, viewedBytes, type ApiNode } from "../helpers/secure-nodes";
import { moveStoredFiles } from "../../core/secure/move-files";
import type { FileStorage } from "../../core/storage";

setDefaultTimeout(90_000);

let pg: PgServer;
let s3: S3Server;
const nodes: ApiNode[] = [];
beforeAll(async () => {
  [pg, s3] = await Promise.all([startPostgres(), startS3Server()]);
});
afterAll(async () => {
  for (const n of nodes) await n.stop();
  await Promise.all([pg?.stop(), s3?.stop()]);
});

async function node(env: Record<string, string>): Promise<ApiNode> {
  const n = await startApiNode(env);
  nodes.push(n);
  return n;
}

const sample = (size: number, seed: number) => new Uint8Array(size).map((_, i) => (i * seed + (i >> 10)) & 0xff);
const storagePaths = async (n: ApiNode) => {
  const { secureFiles } = n.deps.asyncDb.tables;
  return (await n.deps.asyncDb.select({ p: secureFiles.storagePath }).from(secureFiles).orderBy(secureFiles.id)).map((r) => r.p);
};

test("a populated local store moves to postgres, then to s3; every file reads back through a node without it on disk", async () => {
  const url = await pg.createDatabase();
  const local = await node({ DATABASE_URL: url, FILE_STORAGE: "local" });
  const token = await userToken(local, 90);
  const files = [sample(1, 3), sample(5000, 5), sample(300 * 1024, 7), sample(700 * 1024 + 3, 11)];
  const shared = [];
  for (const bytes of files) shared.push(await share(local, token, bytes, "data.bin"));
  // one record whose bytes were lost before the move: reported, left as it is
  await share(local, token, sample(10, 13), "lost.bin");
  rmSync(join(local.dataDir, (await storagePaths(local))[4]!));
  expect(readdirSync(join(local.dataDir, "secure")).filter((n) => n.endsWith(".bin"))).toHaveLength(4);

  const cli = (...args: string[]) =>
    run(["run", "cli.ts", "storage", ...args], cleanEnv({ DATA_DIR: local.dataDir, DATABASE_URL: url, LOG_LEVEL: "error", ...s3.env }));
  const moved = await cli("migrate", "--to", "postgres");
  expect({ code: moved.code, stderr: moved.stderr }).toEqual({ code: 0, stderr: "" });
  const lostPath = (await storagePaths(local))[4]!;
  expect(moved.stdout.split("\n").filter(Boolean)).toEqual([
    "Moved 4 file(s) to postgres; 0 were there already.",
    `Missing: ${lostPath} (its record has no bytes anywhere; left as it is)`,
  ]);
  expect((await storagePaths(local)).map((p) => p!.replace(/\/[\w-]+\.bin$/, "/…"))).toEqual([
    ...Array(4).fill("postgres:secure/…"),
    "secure/…",
  ]);
  expect(readdirSync(join(local.dataDir, "secure")).filter((n) => n.endsWith(".bin"))).toEqual([]);

  // another node, its DATA_DIR empty, serves every file from the database; so does the old one
  const other = await node({ DATABASE_URL: url, ...s3.env });
  for (const [i, bytes] of files.entries()) {
    expect(Buffer.compare(await viewedBytes(other, shared[i]!.code), bytes)).toBe(0);
    expect(Buffer.compare(await viewedBytes(local, shared[i]!.code), bytes)).toBe(0);
  }
  expect(existsSync(join(other.dataDir, "secure"))).toBe(false);

  // run again: nothing left to move
  expect((await cli("migrate", "--to", "postgres")).stdout.split("\n")[0]).toBe("Moved 0 file(s) to postgres; 4 were there already.");

  const toS3 = await cli("migrate", "--to", "s3");
  expect(toS3.code).toBe(0);
  expect(toS3.stdout.split("\n").filter(Boolean)).toEqual([
    "Moved 4 file(s) to s3; 0 were there already.",
    `Missing: ${lostPath} (its record has no bytes anywhere; left as it is)`,
    "New uploads still go to postgres: set FILE_STORAGE=s3, restart the nodes, then run this again to move what arrived meanwhile.",
  ]);
  for (const [i, bytes] of files.entries()) expect(Buffer.compare(await viewedBytes(other, shared[i]!.code), bytes)).toBe(0);
  expect((await storagePaths(other)).slice(0, 4).every((p) => p!.startsWith("s3:secure/"))).toBe(true);

  const usage = await cli("migrate", "--to", "nfs");
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain("--to must be local, postgres or s3");
});

test("a copy whose SHA-256 differs from its source is removed and the record keeps pointing at the source", async () => {
  const url = await pg.createDatabase();
  const a = await node({ DATABASE_URL: url, FILE_STORAGE: "local", ...s3.env });
  const token = await userToken(a, 91);
  const bytes = sample(4000, 17);
  const { code } = await share(a, token, bytes, "data.bin");
  const before = await storagePaths(a);
  const real = a.deps.storage;
  // a target that flips one byte on the way in
  const corrupting: FileStorage = {
    ...real,
    store: (driver) => {
      const store = real.store(driver);
      if (driver !== "postgres") return store;
      return {
        ...store,
        put: (key, source) =>
          store.put(
            key,
            (async function* () {
              let first = true;
              for await (const chunk of source) {
                const copy = chunk.slice();
                if (first) copy[100] = copy[100]! ^ 0xff;
                first = false;
                yield copy;
              }
            })(),
          ),
      };
    },
  };
  const report = await moveStoredFiles({ ...a.deps, storage: corrupting }, "postgres");
  expect(report).toMatchObject({ moved: 0, already: 0, missing: [] });
  expect(report.failed).toHaveLength(1);
  expect(report.failed[0]!.reason).toStartWith("the copy in postgres does not match (SHA-256 ");
  expect(await storagePaths(a)).toEqual(before);
  expect(await real.store("postgres").open(before[0]!)).toBeNull();
  expect(Buffer.compare(await viewedBytes(a, code), bytes)).toBe(0);
});
