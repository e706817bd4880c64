import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../helpers/app";
import { link, pngBytes, seed, upload } from "./helpers";

let t: TestApp;
beforeEach(() => (t = createTestApp({ env: { BASE_URL: "https://app.example", SHORT_URL: "https://s.example" } })));
afterEach(() => t.close());

const BROWSER = { "user-agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36" };
const FORM = { ...BROWSER, "content-type": "application/x-www-form-urlencoded" };
/** Pressing the viewer page's button: the form posts back to the page. */
const open = (code: string, token?: string) => t.request("POST", `/s/${code}`, { headers: FORM, body: "", token });

describe("viewer page at SHORT_URL/s/<code>", () => {
  test("text is shown escaped, with a download button, mobile viewport and strict headers", async () => {
    const { token, folder } = await seed(t);
    const f = (
      await t.request("POST", "/api/secure/files", {
        token,
        body: {
          folderId: folder.id,
          name: "<b>Secret</b>",
          description: 'for "you"',
          contentType: "text",
          textContent: "hello <script>alert(1)</script>\nsecond line",
        },
      })
    ).json;
    const l = await link(t, token, f.id, 1, 2);
    expect(l.url).toBe(`https://s.example/s/${l.code}`);
    const page = await open(l.code);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("content-security-policy")).toMatch(/media-src [^;]*https:\/\/app\.example/);
    expect(page.text).toContain('name="viewport"');
    expect(page.text).toContain("&lt;b&gt;Secret&lt;/b&gt;");
    expect(page.text).toContain("for &quot;you&quot;");
    expect(page.text).toContain("hello &lt;script&gt;alert(1)&lt;/script&gt;\nsecond line");
    expect(page.text).not.toContain("<script");
    expect(page.text).toMatch(/href="https:\/\/app\.example\/api\/secure\/view\/\w+\/download\?grant=[^"]+"/);
    expect(page.text).toContain("1 view left");
  });

  test("image, video and audio get img / video / audio elements on the granted stream URL", async () => {
    const { token, folder, image } = await seed(t);
    const mp4 = new Uint8Array(64);
    mp4.set([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 2, 0, 0x69, 0x73, 0x6f, 0x6d, 0x69, 0x73, 0x6f, 0x32]);
    const wav = new Uint8Array(64);
    wav.set([...new TextEncoder().encode("RIFF"), 56, 0, 0, 0, ...new TextEncoder().encode("WAVEfmt ")]);
    const video = (await t.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "v", contentType: "video" } }))
      .json;
    const audio = (await t.request("POST", "/api/secure/files", { token, body: { folderId: folder.id, name: "a", contentType: "audio" } }))
      .json;
    expect((await upload(t, token, video.id, mp4, "v.mp4")).json.contentType).toBe("video");
    expect((await upload(t, token, audio.id, wav, "a.wav")).json.contentType).toBe("audio");
    const img = await open((await link(t, token, image.id)).code);
    expect(img.text).toMatch(/<img src="https:\/\/app\.example\/api\/secure\/view\/\w+\/stream\?grant=/);
    const vid = await open((await link(t, token, video.id)).code);
    expect(vid.text).toMatch(
      /<video controls playsinline preload="metadata" src="https:\/\/app\.example\/api\/secure\/view\/\w+\/stream\?grant=/,
    );
    const aud = await open((await link(t, token, audio.id)).code);
    expect(aud.text).toMatch(/<audio controls preload="metadata" src="https:\/\/app\.example[^"]+\/stream\?grant=/);
  });

  test("clear pages for 404, 403 (revoked, paused) and 410 (expired, used up)", async () => {
    const { token, image, folder } = await seed(t);
    const unknown = await open("nope1234");
    expect([unknown.status, unknown.headers.get("content-type")]).toEqual([404, "text/html; charset=utf-8"]);
    expect(unknown.text).toContain("Link not found");
    const l = await link(t, token, image.id, 1, 1);
    await t.request("PATCH", `/api/secure/links/${l.id}/revoke`, { token });
    const revoked = await open(l.code);
    expect(revoked.status).toBe(403);
    expect(revoked.text).toContain("revoked");
    await t.request("PATCH", `/api/secure/links/${l.id}/restore`, { token });
    await t.request("PATCH", `/api/secure/folders/${folder.id}/pause`, { token });
    const paused = await open(l.code);
    expect(paused.status).toBe(403);
    expect(paused.text).toContain("paused");
    await t.request("PATCH", `/api/secure/folders/${folder.id}/pause`, { token });
    expect((await open(l.code)).status).toBe(200);
    const used = await open(l.code);
    expect(used.status).toBe(410);
    expect(used.text).toContain("view limit");
    const l2 = await link(t, token, image.id, 1, 1);
    t.clock.advance(3600_000);
    const expired = await open(l2.code);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain("expired");
  });

  test("the owner's own preview of the page says nothing was counted (and nothing is)", async () => {
    const { token, image } = await seed(t);
    const l = await link(t, token, image.id, 1, 2);
    const page = await open(l.code, token);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Your own preview: no view was counted.");
    expect(page.text).not.toContain("One view was counted");
    expect((await t.request("GET", `/api/secure/links?fileId=${image.id}`, { token })).json[0].viewCount).toBe(0);
    expect((await open(l.code)).text).toContain("One view was counted");
  });

  test("re-uploaded content is what the next viewer sees", async () => {
    const { token, image } = await seed(t);
    const l = await link(t, token, image.id, 1, 5);
    await upload(t, token, image.id, pngBytes(300), "new.png");
    expect((await open(l.code)).text).toContain("new.png");
  });
});
