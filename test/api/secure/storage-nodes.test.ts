/**
 * Secure files without a shared file system: nodes on one PostgreSQL, each with its own DATA_DIR,
 * over real HTTP. A file uploaded through one node is served by another from the database
 * (FILE_STORAGE's cluster default), with the same Range answers the local driver gives; a node
 * storing in S3 (a real S3-protocol server) uploads a file the other nodes serve from the bucket.
 */
import { SQL } from "bun";
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { startPostgres, type PgServer } from "../../helpers/postgres";
import { startS3Server, type S3Server } from "../../helpers/s3-server";
import { call, share, startApiNode, streamPath, userToken, type ApiNode } from "../../helpers/secure-nodes";

setDefaultTimeout(60_000);

let pg: PgServer;
let s3: S3Server;
let sql: SQL;
const nodes: ApiNode[] = [];
/** rows of stored_chunks, as the database holds them */
const chunks = async () => Number((await sql`SELECT count(*)::int AS n FROM stored_chunks`)[0].n);

async function startNode(env: Record<string, string> = {}): Promise<ApiNode> {
  const node = await startApiNode({ DATABASE_URL: pg.url, ...s3.env, ...env });
  nodes.push(node);
  return node;
}

beforeAll(async () => {
  [pg, s3] = await Promise.all([startPostgres(), startS3Server()]);
  sql = new SQL(pg.url, { max: 1 });
});
afterAll(async () => {
  for (const n of nodes) await n.stop();
  await sql?.close();
  await Promise.all([pg?.stop(), s3?.stop()]);
});

/** 600 KB that sniff as video/mp4, different at every offset. */
function clip(): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(600 * 1024).map((_, i) => (i * 7 + (i >> 9)) & 0xff);
  bytes.set([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 2, 0, 0x69, 0x73, 0x6f, 0x6d, 0x69, 0x73, 0x6f, 0x32]);
  return bytes;
}

/** What a video player sees from `node`: the whole file, seeks by Range, and the 416 past the end. */
async function expectServed(node: ApiNode, code: string, bytes: Uint8Array) {
  const stream = await streamPath(node, code);
  const whole = await call(node, "GET", stream);
  expect(whole.status).toBe(200);
  expect(whole.headers.get("content-type")).toBe("video/mp4");
  expect(whole.headers.get("accept-ranges")).toBe("bytes");
  // Bun.serve frames a streamed body as chunked and drops a Content-Length set on it (docs/secure.md)
  expect([null, String(bytes.length)]).toContain(whole.headers.get("content-length"));
  expect(Buffer.compare(new Uint8Array(await whole.arrayBuffer()), bytes)).toBe(0);
  const size = bytes.length;
  for (const [range, start, end] of [
    ["bytes=0-0", 0, 0],
    ["bytes=0-1", 0, 1],
    ["bytes=262140-262150", 262_140, 262_150],
    ["bytes=300000-", 300_000, size - 1],
    ["bytes=-5", size - 5, size - 1],
  ] as const) {
    const res = await call(node, "GET", stream, { headers: { range } });
    expect([range, res.status, res.headers.get("content-range")]).toEqual([range, 206, `bytes ${start}-${end}/${size}`]);
    expect([null, String(end - start + 1)]).toContain(res.headers.get("content-length"));
    expect(Buffer.compare(new Uint8Array(await res.arrayBuffer()), bytes.subarray(start, end + 1))).toBe(0);
  }
  const past = await call(node, "GET", stream, { headers: { range: `bytes=${size}-` } });
  expect([past.status, past.headers.get("content-range")]).toEqual([416, `bytes */${size}`]);
}

const binsUnder = (dataDir: string) =>
  existsSync(join(dataDir, "secure")) ? readdirSync(join(dataDir, "secure")).filter((n) => n.endsWith(".bin")) : [];

describe("nodes on one PostgreSQL, each with its own DATA_DIR", () => {
  test("a file uploaded through one node is served by another from the database, Range and all; deleted through either, its chunks go", async () => {
    const [a, b] = [await startNode(), await startNode()];
    expect(a.deps.storage.driver).toBe("postgres");
    const token = await userToken(a, 77);
    const bytes = clip();
    const { fileId, code } = await share(a, token, bytes);
    await expectServed(b, code, bytes);
    expect([binsUnder(a.dataDir), binsUnder(b.dataDir)]).toEqual([[], []]);
    expect(await chunks()).toBe(3); // 600 KB in chunks of 256 KiB
    expect((await call(b, "DELETE", `/api/secure/files/${fileId}`, { token })).status).toBe(200);
    expect(await chunks()).toBe(0);
  });

  test("a node storing in S3 uploads a file the other nodes serve from the bucket", async () => {
    const [a, c] = [nodes[0]!, await startNode({ FILE_STORAGE: "s3" })];
    const token = await userToken(c, 78);
    const bytes = clip().reverse();
    bytes.set(clip().subarray(0, 24)); // still an MP4 by its first bytes
    const { code } = await share(c, token, bytes);
    await expectServed(a, code, bytes);
    expect(binsUnder(c.dataDir)).toEqual([]);
  });
});
