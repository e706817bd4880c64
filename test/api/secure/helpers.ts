import type { TestApp } from "../../helpers/app";

/** A tiny valid PNG signature followed by filler bytes. */
export function pngBytes(size = 200): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(size).fill(7);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  return b;
}

/** Owner, folder, a text file and an uploaded PNG, ready for links. */
export async function seed(t: TestApp, tgId = 42) {
  const { user, token } = await t.telegramUser(tgId, `u${tgId}`);
  const folder = (await t.request("POST", "/api/secure/folders", { token, body: { name: "Docs", description: "mine" } })).json;
  const text = (
    await t.request("POST", "/api/secure/files", {
      token,
      body: { folderId: folder.id, name: "note", contentType: "text", textContent: "line 1\nline <2>" },
    })
  ).json;
  const image = (await t.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "pic", contentType: "file" } }))
    .json;
  const up = await upload(t, token, image.id, pngBytes(), "photo.png");
  if (up.status !== 200) throw new Error(`upload failed: ${up.text}`);
  return { user, token, folder, text, image: up.json };
}

export function upload(
  t: TestApp,
  token: string,
  fileId: number,
  bytes: Uint8Array<ArrayBuffer>,
  name: string,
  type = "application/octet-stream",
) {
  const form = new FormData();
  form.append("file", new Blob([bytes], { type }), name);
  return t.request("POST", `/api/secure/files/${fileId}/upload`, { token, body: form });
}

export async function link(t: TestApp, token: string, fileId: number, expiresInHours = 1, maxViews: number | null = 3) {
  const res = await t.request("POST", "/api/secure/links", { token, body: { fileId, expiresInHours, maxViews } });
  if (res.status !== 201) throw new Error(`link failed: ${res.text}`);
  return res.json as { id: number; code: string; url: string; viewCount: number };
}

/** Path and query of an absolute URL (for in-process requests). */
export function local(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}
