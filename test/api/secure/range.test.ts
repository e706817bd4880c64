import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../helpers/app";
import { contentDisposition, parseRange } from "../../../api/secure/serve";
import { link, local, seed, upload } from "./helpers";

let t: TestApp;
let stream: string;
let bytes: Uint8Array<ArrayBuffer>;
beforeAll(async () => {
  t = createTestApp();
  const s = await seed(t);
  bytes = new Uint8Array(1000).map((_, i) => i % 251);
  // an MP4 "ftyp" box: the bytes say video/mp4 whatever the name
  bytes.set([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 2, 0, 0x69, 0x73, 0x6f, 0x6d, 0x69, 0x73, 0x6f, 0x32]);
  const f = (
    await t.request("POST", "/api/secure/files", { token: s.token, body: { folderId: s.folder.id, name: "clip", contentType: "file" } })
  ).json;
  await upload(t, s.token, f.id, bytes, "clip.bin");
  const l = await link(t, s.token, f.id, 1, 1);
  stream = local((await t.request("GET", `/api/secure/view/${l.code}`)).json.streamUrl);
});
afterAll(() => t.close());

const get = (headers: Record<string, string> = {}) => t.request("GET", stream, { headers });

describe("HTTP Range on /stream", () => {
  test("no Range: 200, full body, Accept-Ranges, ETag, video MIME type from the bytes", async () => {
    const r = await get();
    expect(r.status).toBe(200);
    expect(r.headers.get("accept-ranges")).toBe("bytes");
    expect(r.headers.get("content-length")).toBe("1000");
    expect(r.headers.get("etag")).toMatch(/^"[\w-]+"$/);
    expect(r.headers.get("content-type")).toBe("video/mp4");
  });

  test("bytes=a-b, a-, -n, clamped end → 206 with Content-Range and the exact bytes", async () => {
    const cases: [string, number, number][] = [
      ["bytes=0-0", 0, 0],
      ["bytes=10-19", 10, 19],
      ["bytes=990-", 990, 999],
      ["bytes=-5", 995, 999],
      ["bytes=-5000", 0, 999],
      ["bytes=500-99999", 500, 999],
    ];
    for (const [range, start, end] of cases) {
      const res = await t.app.handle(new Request(`http://localhost${stream}`, { headers: { range } }));
      expect([range, res.status]).toEqual([range, 206]);
      expect(res.headers.get("content-range")).toBe(`bytes ${start}-${end}/1000`);
      expect(res.headers.get("content-length")).toBe(String(end - start + 1));
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes.slice(start, end + 1));
    }
  });

  test("unsatisfiable → 416 with Content-Range bytes */size", async () => {
    for (const range of ["bytes=1000-", "bytes=5000-6000", "bytes=-0"]) {
      const r = await get({ range });
      expect([range, r.status]).toEqual([range, 416]);
      expect(r.headers.get("content-range")).toBe("bytes */1000");
      expect(r.json.error).toBe("range_not_satisfiable");
    }
  });

  test("malformed, reversed or multiple ranges are ignored → 200 full", async () => {
    for (const range of ["bytes=5-1", "items=0-5", "bytes=0-1,5-6", "bytes=abc"]) {
      const r = await get({ range });
      expect([range, r.status, r.headers.get("content-length")]).toEqual([range, 200, "1000"]);
    }
  });

  test("If-Range: matching ETag honours the Range, a stale one sends everything", async () => {
    const etag = (await get()).headers.get("etag")!;
    expect((await get({ range: "bytes=0-9", "if-range": etag })).status).toBe(206);
    const stale = await get({ range: "bytes=0-9", "if-range": '"old"' });
    expect([stale.status, stale.headers.get("content-length")]).toEqual([200, "1000"]);
  });

  test("parseRange unit edge cases", () => {
    expect(parseRange(null, 10)).toBeNull();
    expect(parseRange("bytes=0-", 0)).toBe("unsatisfiable");
    expect(parseRange("bytes=-3", 0)).toBe("unsatisfiable");
    expect(parseRange("bytes=9-", 10)).toEqual({ start: 9, end: 9 });
    expect(parseRange("bytes=-", 10)).toBeNull();
  });
});

test("Content-Disposition (RFC 6266): the ASCII fallback has no %XX sequence a browser might decode; filename* keeps the name", () => {
  expect(contentDisposition("attachment", "100%41 sure.txt")).toBe(
    `attachment; filename="100_41 sure.txt"; filename*=UTF-8''100%2541%20sure.txt`,
  );
  expect(contentDisposition("inline", "naïve.pdf")).toBe(`inline; filename="na_ve.pdf"; filename*=UTF-8''na%C3%AFve.pdf`);
});
