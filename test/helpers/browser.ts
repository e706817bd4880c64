/**
 * Real headless Chromium (Debian's /usr/bin/chromium via playwright-core) against the app
 * listening on 127.0.0.1. Pages record console errors, page errors and any request that leaves
 * the loopback server, so tests can assert "no console errors, nothing fetched from outside".
 */
import { afterAll, beforeAll, expect, setDefaultTimeout } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanUpAtExit } from "./reaper";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { ManualClock } from "../../core/clock";
import { createTestApp, type TestAppOptions } from "./app";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = join(import.meta.dir, "..", "..", "test-artifacts");

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

const SHARED = Symbol.for("linkbot.chromium");
/** Written by the first load of this helper in a process: a later load in a fresh global finds it. */
const LOADED = join(tmpdir(), `linkbot-browser-${process.pid}`);
/**
 * Whether each test file runs in a fresh global (`bun test --isolate`, or `--parallel`): this helper
 * was loaded before in this process, yet its global holds no browser. Only the first file of such a
 * process keeps its browser to the end; the others close theirs.
 */
const ISOLATED = !(globalThis as { [SHARED]?: unknown })[SHARED] && existsSync(LOADED);
if (!existsSync(LOADED)) {
  writeFileSync(LOADED, "");
  cleanUpAtExit({ remove: LOADED });
}

/**
 * The test process's one Chromium: launched by the first browser test file and kept for the next
 * ones (a launch and a first page cost 2 to 3 s on a busy machine, every file over again). Each file
 * closes its own pages' contexts; the process's end takes the browser (Playwright kills it then).
 * One that has died is launched again.
 */
function chromiumForFile(): Promise<Browser> {
  if (ISOLATED) return launchChromium();
  const holder = globalThis as { [SHARED]?: Promise<Browser> };
  const previous = holder[SHARED] ?? Promise.reject(new Error("none yet"));
  holder[SHARED] = previous.then(
    (b) => (b.isConnected() ? b : launchChromium()),
    () => launchChromium(),
  );
  return holder[SHARED];
}

/** A free loopback port (the config needs BASE_URL before the server listens). */
function freePort(): number {
  const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

export type ServerOptions = TestAppOptions & { host?: "127.0.0.1" | "localhost" };

/**
 * The whole app listening on 127.0.0.1:<port>, clock at the real now (the browser uses real time).
 * `host: "localhost"` names it http://localhost:<port> (WebAuthn refuses IP addresses as RP ID).
 */
function startServer(opts: ServerOptions = {}) {
  const port = freePort();
  const baseUrl = `http://${opts.host ?? "127.0.0.1"}:${port}`;
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
export async function openPage(
  browser: Browser,
  baseUrl: string,
  init?: { script: string | ((arg: any) => void); arg?: unknown },
): Promise<TrackedPage> {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 1 });
  context.setDefaultTimeout(5000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`http ${r.status()} ${r.request().method()} ${r.url()}`));
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

/**
 * The page met exactly these problems, in any order: a failed request reaches the test twice, as the
 * response and as Chromium's console line, through two event streams whose order is not fixed (and
 * the console line may come a moment after the response), so this waits up to 2 s for the full set.
 */
export async function expectProblems(problems: string[], expected: string[]) {
  await until(async () => problems.toSorted(), expected.toSorted(), 2000);
}

/** Saves a full-page screenshot under test-artifacts/ (gitignored). */
export async function screenshot(page: Page, name: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** A page already signed in with `token` (the session the email/passkey sign-in would store). */
export function openSignedIn(browser: Browser, baseUrl: string, token: string): Promise<TrackedPage> {
  return openPage(browser, baseUrl, {
    script: (t: string) => {
      if (!localStorage.getItem("dash.access")) localStorage.setItem("dash.access", t);
    },
    arg: token,
  });
}

/** Polls `read` until it equals `want` (deadline 5 s), then asserts it, so a failure shows the last value. */
export async function until<T>(read: () => Promise<T>, want: Awaited<T>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!Bun.deepEquals(last, want) && Date.now() < deadline) {
    await Bun.sleep(25);
    last = await read();
  }
  expect(last).toEqual(want);
}

/**
 * One server for a test file and the process's Chromium: the server started in beforeAll and
 * stopped in afterAll, with the contexts the file opened.
 * `ready` receives them; `options` is read when the server starts (so it may use other beforeAll state).
 * It also gives the file's tests and hooks 60 s each (Bun 1.4 reads no timeout from bunfig, and a
 * cold Chromium start on a loaded machine passes the 5 s default).
 */
export function withBrowserApp(ready: (app: { server: Server; browser: Browser }) => void, options: () => ServerOptions = () => ({})) {
  setDefaultTimeout(60_000);
  let app: { server: Server; browser: Browser } | undefined;
  beforeAll(async () => {
    app = { server: startServer(options()), browser: await chromiumForFile() };
    ready(app);
  });
  afterAll(async () => {
    // the file's pages go with it; the browser stays for the next file (see chromiumForFile)
    for (const context of app?.browser.contexts() ?? []) await context.close();
    if (ISOLATED) await app?.browser.close();
    await app?.server.stop();
  });
}

/** Matches requests to `base` with any query the page adds (paging, search), and nothing else. */
export const requestsTo = (base: string) => (u: URL) => u.href === base || u.href.startsWith(base + (base.includes("?") ? "&" : "?"));

/**
 * Answers the page's requests that `match` with a 500 in the error model (message "Something went
 * wrong on our side."), to show a page's error state; `seen` gets each answered URL. Resolves to
 * the function that lets requests through again.
 */
export async function failRequests(
  page: Page,
  match: (u: URL) => boolean,
  seen: (url: string) => void = () => {},
): Promise<() => Promise<void>> {
  await page.route(match, (r) => {
    seen(r.request().url());
    return r.fulfill({
      status: 500,
      contentType: "application/json",
      body: JSON.stringify({ error: "internal_error", message: "Something went wrong on our side." }),
    });
  });
  return () => page.unroute(match);
}
