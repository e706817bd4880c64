/**
 * Service nodes in this process for storage tests: the whole API (openDeps + createApi) listening on
 * loopback, each with its own DATA_DIR, and the calls a user makes to upload, share and view a file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "bun:test";
import { loadConfig } from "../../config";
import { openDeps, type ServiceDeps } from "../../app";
import { createApi } from "../../api/app";
import { createLogger } from "../../core/log";
import { upsertTelegramUser } from "../../core/accounts/users";
import { signAccessToken } from "../../core/tokens/jwt";

export type ApiNode = { deps: ServiceDeps; url: string; dataDir: string; stop(): Promise<void> };

/** A node with its own fresh DATA_DIR and `env` (DATABASE_URL, FILE_STORAGE, S3_* …); no click journal. */
export async function startApiNode(env: Record<string, string>): Promise<ApiNode> {
  const dataDir = mkdtempSync(join(tmpdir(), "linkbot-node-"));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error", RATE_LIMIT_API: "100000", ...env });
  const deps = await openDeps(config, { log: createLogger("error"), journalDir: null });
  const app = createApi(deps).listen({ hostname: "127.0.0.1", port: 0 });
  return {
    deps,
    dataDir,
    url: `http://127.0.0.1:${app.server!.port}`,
    async stop() {
      await app.stop(true);
      await deps.handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A signed-in Telegram user of `node`'s database. */
export async function userToken(node: ApiNode, tgId: number): Promise<string> {
  const user = await upsertTelegramUser(node.deps, { id: tgId, username: `u${tgId}`, firstName: "U" });
  return signAccessToken(node.deps, user.id);
}

export async function call(
  node: ApiNode,
  method: string,
  path: string,
  init: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: BodyInit | undefined;
  if (init.body instanceof FormData) body = init.body;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["content-type"] = "application/json";
  }
  return fetch(`${node.url}${path}`, { method, headers, body });
}

/** Through `node`: a folder, a file, its bytes uploaded, and a share link; returns the file's id and the link's code. */
export async function share(node: ApiNode, token: string, bytes: Uint8Array<ArrayBuffer>, name = "clip.mp4") {
  const folder = await (await call(node, "POST", "/api/secure/folders", { token, body: { name: "Clips" } })).json();
  const file = await (
    await call(node, "POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "clip", contentType: "file" } })
  ).json();
  const form = new FormData();
  form.append("file", new Blob([bytes]), name);
  const up = await call(node, "POST", `/api/secure/files/${file.id}/upload`, { token, body: form });
  expect(up.status).toBe(200);
  expect(await up.json()).toMatchObject({ fileSize: bytes.length, hasContent: true });
  const link = await (
    await call(node, "POST", "/api/secure/links", { token, body: { fileId: file.id, expiresInHours: 1, maxViews: 50 } })
  ).json();
  return { fileId: file.id as number, code: link.code as string };
}

/** The path and query of a share link's stream URL, as a visitor's player gets it from `node` (one view). */
export async function streamPath(node: ApiNode, code: string): Promise<string> {
  const view = await (await call(node, "GET", `/api/secure/view/${code}`)).json();
  const url = new URL(view.streamUrl);
  return url.pathname + url.search;
}

/** The whole file a visitor of share link `code` downloads from `node`. */
export async function viewedBytes(node: ApiNode, code: string): Promise<Uint8Array> {
  const res = await call(node, "GET", await streamPath(node, code));
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}
