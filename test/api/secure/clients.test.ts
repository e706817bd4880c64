/**
 * Who counts as a viewer, over a real listening server: people with any client (browsers, curl,
 * python-requests, okhttp, Bun's fetch, no User-Agent at all) count a view and get the content; only
 * the named link-preview fetchers and HEAD requests count nothing and learn nothing.
 */
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createTestApp, type TestApp } from "../../helpers/app";
import { link, seed } from "./helpers";

// runs real clients (curl, python3, node) as processes: more than bun's 5 s default on a busy machine
setDefaultTimeout(30_000);

let t: TestApp;
let base: string;
beforeEach(() => {
  t = createTestApp();
  t.app.listen({ hostname: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${t.app.server!.port}`;
});
afterEach(() => {
  t.app.stop();
  t.close();
});

async function run(cmd: string[]): Promise<string> {
  const p = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd[0]} exited ${code}: ${err}`);
  return out;
}

const PY_GET = "import requests,sys; r=requests.get(sys.argv[1]); print(r.status_code); print(r.text)";

/** Each client fetches `url` and answers `[status, body]`. */
const CLIENTS: Record<string, (url: string) => Promise<[number, string]>> = {
  browser: async (url) => {
    const r = await fetch(url, {
      headers: { "user-agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15" },
    });
    return [r.status, await r.text()];
  },
  curl: async (url) => {
    const out = await run(["curl", "-sS", "-w", "\n%{http_code}", url]);
    const at = out.lastIndexOf("\n");
    return [Number(out.slice(at + 1)), out.slice(0, at)];
  },
  "python-requests": async (url) => {
    const out = await run(["python3", "-c", PY_GET, url]);
    const [status, ...body] = out.split("\n");
    return [Number(status), body.join("\n").replace(/\n$/, "")];
  },
  okhttp: async (url) => {
    const r = await fetch(url, { headers: { "user-agent": "okhttp/4.12.0" } });
    return [r.status, await r.text()];
  },
  "Bun fetch": async (url) => {
    const r = await fetch(url); // Bun's own User-Agent
    return [r.status, await r.text()];
  },
  "no User-Agent": async (url) => {
    const out = await run(["curl", "-sS", "-A", "", "-w", "\n%{http_code}", url]); // -A "" drops the header
    const at = out.lastIndexOf("\n");
    return [Number(out.slice(at + 1)), out.slice(0, at)];
  },
};

const viewCount = async (token: string, fileId: number, id: number) =>
  (await t.request("GET", `/api/secure/links?fileId=${fileId}`, { token })).json.find((l: any) => l.id === id).viewCount as number;

describe("every client that is not a named link preview is a person", () => {
  for (const [name, get] of Object.entries(CLIENTS)) {
    test(`${name}: GET /api/secure/view/:code counts one view and returns the text; /download without a grant counts one and returns the bytes`, async () => {
      const { token, text, image } = await seed(t);
      const l = await link(t, token, text.id, 1, 3);
      const [status, body] = await get(`${base}/api/secure/view/${l.code}`);
      expect(status).toBe(200);
      expect(JSON.parse(body)).toMatchObject({ lines: ["line 1", "line <2>"], viewsLeft: 2, preview: false });
      expect(await viewCount(token, text.id, l.id)).toBe(1);

      const f = await link(t, token, image.id, 1, 1);
      const [s2, bytes] = await get(`${base}/api/secure/view/${f.code}/download`);
      expect(s2).toBe(200);
      expect(bytes.startsWith("\uFFFDPNG")).toBe(true);
      expect(await viewCount(token, image.id, f.id)).toBe(1);
      expect((await get(`${base}/api/secure/view/${f.code}`))[0]).toBe(410); // its only view is used
    });
  }
});

describe("previews count nothing", () => {
  const FETCHERS = [
    "TelegramBot (like TwitterBot)",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "Twitterbot/1.0",
    "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "WhatsApp/2.23.20.0 A",
    "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
    "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
    "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5",
    "Mozilla/5.0 (compatible; vkShare; +http://vk.com/dev/Share)",
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  ];

  test("each named fetcher gets no content from the view, stream, download or the viewer page, and counts nothing", async () => {
    const { token, image } = await seed(t);
    const l = await link(t, token, image.id, 1, 1);
    for (const ua of FETCHERS) {
      const headers = { "user-agent": ua };
      const view = (await (await fetch(`${base}/api/secure/view/${l.code}`, { headers })).json()) as any;
      expect([ua, view.streamUrl, view.fileName]).toEqual([ua, undefined, undefined]);
      for (const p of ["stream", "download"]) {
        const r = await fetch(`${base}/api/secure/view/${l.code}/${p}`, { headers });
        expect([ua, r.status, ((await r.json()) as any).error]).toEqual([ua, 403, "preview_bot"]);
      }
      const page = await fetch(`${base}/s/${l.code}`, { headers });
      expect(page.status).toBe(200);
      const pressed = await fetch(`${base}/s/${l.code}`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
        body: "",
      });
      expect(await pressed.text()).toContain("Open the link in a browser");
    }
    expect(await viewCount(token, image.id, l.id)).toBe(0);
  });

  test("HEAD on the view, stream, download and page counts nothing and gives no file name, type or size", async () => {
    const { token, image } = await seed(t);
    const l = await link(t, token, image.id, 1, 1);
    for (const p of [
      `/api/secure/view/${l.code}`,
      `/api/secure/view/${l.code}/stream`,
      `/api/secure/view/${l.code}/download`,
      `/s/${l.code}`,
    ]) {
      const head = await fetch(`${base}${p}`, { method: "HEAD" });
      expect([p, head.status]).toEqual([p, 200]);
      expect(head.headers.get("content-disposition")).toBeNull();
      expect(head.headers.get("content-length") ?? "0").toBe("0");
      expect(head.headers.get("content-type") ?? "").not.toContain("image/png");
      expect(head.headers.get("etag")).toBeNull();
    }
    expect(await viewCount(token, image.id, l.id)).toBe(0);
    // HEAD still tells a link checker whether the link works
    await t.request("PATCH", `/api/secure/links/${l.id}/revoke`, { token });
    expect((await fetch(`${base}/api/secure/view/${l.code}/download`, { method: "HEAD" })).status).toBe(403);
  });
});
