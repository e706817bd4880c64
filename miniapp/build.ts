/**
 * Builds the mini-app (Preact + htm, Chart.js, @simplewebauthn/browser) with Bun.build into memory.
 * Used by the server at the first request to /app; nothing is written to disk, so a fresh clone
 * only needs `bun install && bun start`.
 */
import { join } from "node:path";
import type { BunPlugin } from "bun";

interface Asset {
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  type: string;
}

export interface MiniappBuild {
  /** Asset file name (content-hashed) → asset. */
  assets: Map<string, Asset>;
  entryJs: string;
  entryCss: string | null;
  /** Gzipped bytes of the JavaScript loaded on first page view (entry chunk and its static imports). */
  firstLoadJsGzip: number;
  totalJsGzip: number;
}

const SRC = join(import.meta.dir, "src");

/**
 * The mini-app's entries of a Fluent file, with their continuation lines: its own (`app-`) and the
 * words it shares with the bot: problems (`problem-`, `field-`, `check-`: core/i18n/problem.ts) and plans (`plan-`).
 */
const APP_KEYS = /^(app|problem|field|check|plan)-/;
function appEntries(ftl: string): string {
  const out: string[] = [];
  let keep = false;
  for (const line of ftl.split("\n")) {
    const head = /^([a-z][\w-]*)\s*=/.exec(line);
    if (head) keep = APP_KEYS.test(head[1]!);
    else if (!/^\s/.test(line)) keep = false;
    if (keep) out.push(line);
  }
  return out.join("\n");
}

/** Imports of locales/*.ftl become the mini-app's entries as a string (the bot's texts stay out of the bundle). */
const languageFiles: BunPlugin = {
  name: "app-language-files",
  setup(build) {
    build.onLoad({ filter: /\.ftl$/ }, async ({ path }) => ({
      contents: `export default ${JSON.stringify(appEntries(await Bun.file(path).text()))};`,
      loader: "js",
    }));
  },
};

/** Bundles `miniapp/src/main.ts` (minified, code-split) and pre-compresses every asset. */
async function buildMiniapp(): Promise<MiniappBuild> {
  const result = await Bun.build({
    entrypoints: [join(SRC, "main.ts")],
    target: "browser",
    format: "esm",
    minify: true,
    splitting: true,
    plugins: [languageFiles],
    naming: { entry: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]", asset: "[name]-[hash].[ext]" },
  });
  if (!result.success) throw new Error(`mini-app build failed: ${result.logs.map(String).join("\n")}`);
  const assets = new Map<string, Asset>();
  let entryJs = "";
  let entryCss: string | null = null;
  for (const out of result.outputs) {
    const name = out.path.replace(/^\.\//, "");
    const body = new Uint8Array(await out.arrayBuffer());
    const type = name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
    assets.set(name, { body, gzip: Bun.gzipSync(body) as Uint8Array<ArrayBuffer>, type });
    if (out.kind === "entry-point" && name.endsWith(".js")) entryJs = name;
    if (name.endsWith(".css")) entryCss = name;
  }
  const firstLoad = staticClosure(entryJs, assets);
  const gz = (names: Iterable<string>) => [...names].reduce((n, f) => n + (assets.get(f)?.gzip.length ?? 0), 0);
  const jsNames = [...assets.keys()].filter((n) => n.endsWith(".js"));
  return { assets, entryJs, entryCss, firstLoadJsGzip: gz(firstLoad), totalJsGzip: gz(jsNames) };
}

/** The entry chunk plus every chunk it imports statically (what the browser fetches before running). */
function staticClosure(entry: string, assets: Map<string, Asset>): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name) || !assets.has(name)) return;
    seen.add(name);
    const code = new TextDecoder().decode(assets.get(name)!.body);
    for (const m of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w${},*\s]+from\s*)?["']\.\/([^"']+)["']/g)) visit(m[1]!);
  };
  visit(entry);
  return seen;
}

let cached: Promise<MiniappBuild> | null = null;

/** The build, made once per process. */
export function miniappBuild(): Promise<MiniappBuild> {
  cached ??= buildMiniapp();
  cached.catch(() => (cached = null));
  return cached;
}
