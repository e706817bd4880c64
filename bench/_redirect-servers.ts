/**
 * The redirect benchmark's servers, each in a process of its own: the real app serving one link
 * (plain, with rules, or with macros), or a bare Bun.serve answering the same 302; and what a
 * visitor's client gets from either, to check that both answer alike before measuring.
 */
import { dirname, join } from "node:path";
import { startCommand } from "../scripts/start-command";

export const TARGET = "https://example.com/landing?utm_source=bench";
/** The target of `--link macros`: the click id and a sub parameter, filled at the redirect. */
export const MACRO_URL = "https://example.com/landing?cid={click_id}&net={sub1}";
export const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
/** What the app's redirect carries besides Location (api/visitor/index.ts); the bare server sends the same. */
const REDIRECT_HEADERS = { "cache-control": "no-store", "x-robots-tag": "noindex" };
/** A side port in each server process that reports the CPU time the process has used (µs). */
function cpuPort(): number {
  return Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json(process.cpuUsage()) }).port!;
}

/**
 * 20 rules that the benchmark's requests (Chrome on Windows, from 127.0.0.1, no Accept-Language, no
 * query) never meet, each failing only on its last check (conditions are checked from the time
 * window and query to the agent, language and country), and a three-way split.
 */
function routingBenchLink() {
  const always = { os: ["Windows"], device: ["desktop"] };
  const failing = [
    { country: ["DE", "AT", "CH"] },
    { language: ["de", "fr"] },
    { country: ["US"], language: ["en"] },
    { os: ["iOS", "Android"] },
    { query: { src: "mail" } },
    { from: "2020-01-01T00:00:00Z", to: "2020-02-01T00:00:00Z" },
  ];
  const rules = Array.from({ length: 20 }, (_, i) => ({
    if: { ...(i % 6 <= 2 ? always : {}), ...failing[i % 6]! },
    url: `https://example.com/rule-${i}`,
  }));
  const variants = ["a", "b", "c"].map((v, i) => ({ url: `https://example.com/landing-${v}`, weight: [50, 30, 20][i]! }));
  return { rules, variants };
}

/**
 * The bare server's 302 (the app answers each request with its id, X-Request-Id: the bare server
 * makes one too, so both do the same work). `reads` (`--ceiling`) first reads what recording a click
 * needs and the bare server does not (the peer's address, Host, User-Agent, Referer and the URL), and
 * records nothing: its ratio to bare is the most any app that records who clicked can reach on this
 * runtime and machine.
 */
function bareServer(location: string, reads: boolean) {
  const answer = () => new Response(null, { status: 302, headers: { location, ...REDIRECT_HEADERS, "x-request-id": crypto.randomUUID() } });
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: !reads
      ? answer
      : (request, server) => {
          const headers = request.headers;
          const read = [
            server.requestIP(request)?.address,
            headers.get("host"),
            headers.get("user-agent"),
            headers.get("referer"),
            request.url,
          ];
          // the reads are used, so no engine can drop them
          if (read.join("").length === 0) throw new Error("nothing read");
          return answer();
        },
  });
}

export async function serve(kind: string, dataDir: string, linkKind: string, location: string) {
  if (kind === "bare" || kind === "reads") {
    console.log(JSON.stringify({ port: bareServer(location, kind === "reads").port, cpu: cpuPort() }));
    return;
  }
  const { loadConfig } = await import("../config");
  const { createDeps } = await import("../app");
  const { silentLogger } = await import("../core/log");
  const { createApi } = await import("../api/app");
  const { upsertTelegramUser } = await import("../core/accounts/users");
  const { createLink } = await import("../core/links/links");
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error", SHORT_URL: "http://127.0.0.1" });
  const deps = createDeps(config, { log: silentLogger, ...(kind === "app-nojournal" ? { journalDir: null } : {}) });
  const { links } = await import("../db/schema");
  // a restart on the same data directory serves the link the first start made
  const link =
    deps.db.select().from(links).get() ??
    (await createLink(deps, await upsertTelegramUser(deps, { id: 1, username: "bench" }), {
      url: linkKind === "macros" ? MACRO_URL : "https://example.com/landing",
      utm_source: "bench",
      ...(linkKind === "rules" ? routingBenchLink() : {}),
    }));
  const clicks = deps.clicks;
  await clicks.start({ offThread: true });
  const app = createApi(deps).listen({ hostname: "127.0.0.1", port: 0 });
  console.log(JSON.stringify({ port: app.server!.port, code: link.code, id: link.id, cpu: cpuPort() }));
  process.on("SIGTERM", async () => {
    await app.stop();
    await clicks.stop();
    deps.handle.close();
    process.exit(0);
  });
}

export async function start(
  kind: string,
  dataDir: string,
  linkKind: string,
  location = TARGET,
  script = join(import.meta.dir, "redirect.ts"),
) {
  // each app runs with the variables its checkout's `bun start` sets, the bare server with this checkout's
  const env = { ...process.env, ...startCommand(join(dirname(script), "..")).env };
  const child = Bun.spawn(["bun", script, "--serve", kind, dataDir, linkKind, location], { env, stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  return {
    child,
    info: JSON.parse(new TextDecoder().decode(value).split("\n")[0]!) as { port: number; cpu: number; code?: string; id?: number },
  };
}

/** What a visitor's client gets: status and headers without the date and the request's id (both differ on every answer). */
export async function answerOf(url: string) {
  const res = await fetch(url, { redirect: "manual", headers: { "user-agent": UA } });
  // a click id differs from answer to answer: compared left out
  const headers = [...res.headers]
    .filter(([k]) => k !== "date" && k !== "x-request-id")
    .map(([k, v]) => [k, v.replace(/cid=[^&]*/, "cid=*")]);
  return JSON.stringify({ status: res.status, headers: headers.sort() });
}
