/**
 * Real headless Chromium (Debian's /usr/bin/chromium via playwright-core) against the app
 * listening on 127.0.0.1. Pages record console errors, page errors and any request that leaves
 * the loopback server, so tests can assert "no console errors, nothing fetched from outside".
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { ManualClock } from "../../core/clock";
import { createTestApp, type TestAppOptions } from "./app";

export const CHROMIUM = "/usr/bin/chromium";
export const ARTIFACTS = join(import.meta.dir, "..", "..", "test-artifacts");

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
}

/** A free loopback port (the config needs BASE_URL before the server listens). */
function freePort(): number {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

/** The whole app on 127.0.0.1:<port>, clock at the real now (the browser uses real time). */
export function startServer(opts: TestAppOptions = {}) {
  const port = freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = createTestApp({ clock: new ManualClock(Date.now()), ...opts, env: { PORT: String(port), BASE_URL: baseUrl, ...opts.env } });
  const server = t.app.listen({ hostname: "127.0.0.1", port });
  return {
    ...t,
    baseUrl,
    async stop() {
      await server.stop();
      t.close();
    },
  };
}
export type Server = ReturnType<typeof startServer>;

export interface TrackedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors, uncaught page errors and requests outside the server. */
  problems: string[];
}

/** A phone-sized page (360×740) that records problems; `init` runs before any page script. */
export async function openPage(browser: Browser, baseUrl: string, init?: { script: string | ((arg: any) => void); arg?: unknown }): Promise<TrackedPage> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("dialog", (d) => void d.accept());
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(baseUrl) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
    problems.push(`outside request: ${url}`);
    return route.abort();
  });
  if (init) await context.addInitScript(init.script as any, init.arg);
  return { page, context, problems };
}

/** Saves a full-page screenshot under test-artifacts/ (gitignored). */
export async function screenshot(page: Page, name: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}
