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
import { chromium, type Browser, type BrowserContext, type Page, type Request } from "playwright-core";
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
      // no name but the test servers' resolves: a request that would leave the machine fails at
      // once (and is recorded as a problem, see openPage); a test's own route still answers it
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
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

type RouteUrl = string | RegExp | ((url: URL) => boolean);

/** A Playwright URL glob as a pattern: `**` any characters, `*` any but `/`. */
const globPattern = (glob: string) =>
  new RegExp(
    `^${glob
      .split("**")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*"))
      .join(".*")}$`,
  );

/**
 * Whether a URL is one a test answers itself through `route` on the context or the page (a
 * destination that answers "landed"): such a request stays on the machine whatever the browser
 * tried first (a redirect's hop may reach the resolver before the route answers it).
 */
function answeredByTest(context: BrowserContext, page: Page): (url: string) => boolean {
  const patterns: RouteUrl[] = [];
  for (const target of [context, page] as const) {
    const route = target.route.bind(target) as unknown as (url: RouteUrl, ...rest: unknown[]) => Promise<unknown>;
    (target as unknown as { route: typeof route }).route = (url, ...rest) => {
      patterns.push(url);
      return route(url, ...rest);
    };
  }
  return (url) =>
    patterns.some((p) => (typeof p === "string" ? globPattern(p).test(url) : p instanceof RegExp ? p.test(url) : p(new URL(url))));
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
  // a request outside the service fails (the browser resolves no other name), so none is answered
  // unless a test routes it; recorded when it fails rather than intercepted, since intercepting every
  // request lost a response event now and then under load
  const routed = answeredByTest(context, page);
  const outside = (url: string) => !(url.startsWith(baseUrl) || url.startsWith("data:") || url.startsWith("blob:") || routed(url));
  const local = (url: string) => /^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url);
  // one that went for the network: its name did not resolve (one a test's route answered or aborted did not)
  const left = (r: Request) => r.failure()?.errorText === "net::ERR_NAME_NOT_RESOLVED";
  context.on("requestfailed", (r) => outside(r.url()) && !local(r.url()) && left(r) && problems.push(`outside request: ${r.url()}`));
  // another port of this machine resolves: recorded as soon as it is asked for
  context.on("request", (r) => outside(r.url()) && local(r.url()) && problems.push(`outside request: ${r.url()}`));
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
