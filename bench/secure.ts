/**
 * Secure-sharing stream benchmark: throughput of /stream and /download on loopback and the server's
 * resident memory (RSS, from /proc) while streaming. The server runs in a child process so its RSS is
 * its own. Prints figures; never fails on speed.  Run: bun run bench/secure.ts
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BIG_MB = 256; // planted directly on disk (uploads stop at 10 MB) to show RSS does not follow file size
const UA = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36" };

if (process.argv.includes("--server")) await server();
else await main();

async function server() {
  const { loadConfig } = await import("../config");
  const { createDeps } = await import("../app");
  const { createApi } = await import("../api/app");
  const { upsertTelegramUser } = await import("../core/accounts/users");
  const { createFolder } = await import("../core/secure/folders");
  const { createUploadedFile } = await import("../core/secure/files");
  const { createShareLink } = await import("../core/secure/share-links");
  const { secureFiles } = await import("../db/schema");
  const { eq } = await import("drizzle-orm");
  const dataDir = process.argv[process.argv.indexOf("--server") + 1]!;
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error", PLAN_LIMITS: JSON.stringify({ free: { storageMB: 100000 } }) });
  const deps = createDeps(config);
  const user = await upsertTelegramUser(deps, { id: 1, username: "bench", firstName: "Bench" });
  const folder = await createFolder(deps, user.id, { name: "bench" });
  async function* chunks(total: number) {
    const c = new Uint8Array(1024 * 1024).map((_, i) => i % 251);
    for (let sent = 0; sent < total; sent += c.length) yield c.subarray(0, Math.min(c.length, total - sent));
  }
  const small = await createUploadedFile(deps, user.id, { folderId: folder.id, name: "10mb" }, chunks(10 * 1024 * 1024), "ten.bin");
  const big = await createUploadedFile(deps, user.id, { folderId: folder.id, name: "big" }, chunks(1024), "big.bin");
  const bigPath = join("secure", "bench-big.bin");
  const fd = openSync(join(dataDir, bigPath), "w");
  const mb = new Uint8Array(1024 * 1024).fill(7);
  for (let i = 0; i < BIG_MB; i++) writeSync(fd, mb);
  closeSync(fd);
  deps.db
    .update(secureFiles)
    .set({ storagePath: bigPath, fileSize: BIG_MB * 1024 * 1024 })
    .where(eq(secureFiles.id, big.id))
    .run();
  const codes = {
    small: (await createShareLink(deps, user.id, { fileId: small.id, expiresInHours: 24, maxViews: null })).code,
    big: (await createShareLink(deps, user.id, { fileId: big.id, expiresInHours: 24, maxViews: null })).code,
  };
  const { signAccessToken } = await import("../core/tokens/jwt");
  const target = await createUploadedFile(deps, user.id, { folderId: folder.id, name: "upload target" }, chunks(1), "t.bin");
  const app = createApi(deps).listen({ hostname: "127.0.0.1", port: 0 });
  console.log(JSON.stringify({ port: app.server!.port, codes, token: await signAccessToken(deps, user.id), uploadId: target.id }));
}

function rssMB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function drain(url: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(url, { headers: { ...UA, ...headers } });
  let n = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) n += chunk.length;
  return n;
}

async function phase(name: string, pid: number, run: () => Promise<number>) {
  let peak = rssMB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMB(pid))), 20);
  const start = performance.now();
  const bytes = await run();
  const secs = (performance.now() - start) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, rssMB(pid));
  const row = {
    phase: name,
    MB: +(bytes / 1048576).toFixed(0),
    seconds: +secs.toFixed(2),
    "MB/s": +(bytes / 1048576 / secs).toFixed(0),
    "server peak RSS MB": +peak.toFixed(0),
  };
  console.log(JSON.stringify(row));
  return row;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "secure-bench-"));
  const child = Bun.spawn(["bun", import.meta.path, "--server", dataDir], { stdout: "pipe", stderr: "inherit" });
  try {
    const reader = child.stdout.getReader();
    let line = "";
    while (!line.includes("\n")) line += new TextDecoder().decode((await reader.read()).value);
    const { port, codes, token, uploadId } = JSON.parse(line) as {
      port: number;
      codes: { small: string; big: string };
      token: string;
      uploadId: number;
    };
    const base = `http://127.0.0.1:${port}`;
    const grantUrls = async (code: string) =>
      (await (await fetch(`${base}/api/secure/view/${code}`, { headers: UA })).json()) as { streamUrl: string; downloadUrl: string };
    const small = await grantUrls(codes.small);
    const big = await grantUrls(codes.big);
    const fix = (u: string) => u.replace(/^https?:\/\/[^/]+/, base);
    Bun.gc(true);
    console.log(`server idle RSS after seeding: ${rssMB(child.pid).toFixed(0)} MB (${BIG_MB} MB and 10 MB files on disk)`);

    await phase(`${BIG_MB} MB file, 1 client, /download`, child.pid, () => drain(fix(big.downloadUrl)));
    await phase(`${BIG_MB} MB file, 4 clients in parallel, /stream`, child.pid, async () =>
      (await Promise.all(Array.from({ length: 4 }, () => drain(fix(big.streamUrl))))).reduce((a, b) => a + b, 0),
    );
    await phase("10 MB file, 16 clients × 8 downloads", child.pid, async () => {
      let total = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let i = 0; i < 8; i++) {
            const n = await drain(fix(small.streamUrl));
            total += n;
          }
        }),
      );
      return total;
    });
    const ranges = 2000;
    const r = await phase(`${ranges} random 256 KB Range requests (video seeking), 16 at a time`, child.pid, async () => {
      let total = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let i = 0; i < ranges / 16; i++) {
            const from = Math.floor(Math.random() * (BIG_MB - 1) * 1048576);
            const n = await drain(fix(big.streamUrl), { range: `bytes=${from}-${from + 262143}` });
            total += n;
          }
        }),
      );
      return total;
    });
    console.log(`Range requests per second: ${(ranges / r.seconds).toFixed(0)}`);
    const upload = new Uint8Array(10 * 1024 * 1024 - 4096).map((_, i) => (i * 13) % 256);
    await phase("10 MB multipart uploads, 4 clients × 4 (streamed to disk)", child.pid, async () => {
      let total = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let i = 0; i < 4; i++) {
            const form = new FormData();
            form.append("file", new Blob([upload]), "u.bin");
            const res = await fetch(`${base}/api/secure/files/${uploadId}/upload`, {
              method: "POST",
              headers: { authorization: `Bearer ${token}` },
              body: form,
            });
            if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
            total += upload.length;
          }
        }),
      );
      return total;
    });
    Bun.gc(true);
    console.log(`server RSS after the run: ${rssMB(child.pid).toFixed(0)} MB`);
  } finally {
    child.kill();
    await child.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}
