/**
 * The import graph of core/ and the rules it keeps: no cycle between feature folders, mechanisms
 * (clicks, delivery) that import no feature, and nothing imported from the composition root (app/),
 * which only the entry points use. Plus the database seams: write transactions through db/transaction.ts, no transaction cast
 * to a database, no registries keyed by identity, modules on the async seam (db/async.ts) querying
 * only through it, the raw connection (`$client`) only in db/ and the click writers, and click
 * listeners that are pure functions returning rows.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./helpers/process";

const CORE = join(ROOT, "core");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules") return [];
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

type Import = { from: string; to: string; typeOnly: boolean };

/** Every relative import and re-export of a file (static, dynamic, type-only), resolved to a .ts path. */
function importsOf(file: string): Import[] {
  const src = readFileSync(file, "utf8");
  const found: Import[] = [];
  const add = (spec: string, typeOnly: boolean) => {
    if (!spec.startsWith(".")) return;
    const path = resolve(dirname(file), spec);
    // a folder's import is its index.ts (`../app`, `./storage`)
    const to = path.endsWith(".ts") ? path : existsSync(path) && statSync(path).isDirectory() ? join(path, "index.ts") : `${path}.ts`;
    found.push({ from: file, to, typeOnly });
  };
  for (const m of src.matchAll(/^\s*(import|export)(\s+type)?\s[^;]*?\sfrom\s+["']([^"']+)["']/gm)) add(m[3]!, !!m[2]);
  for (const m of src.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) add(m[1]!, false);
  return found;
}

/** The feature folder of a file under core/ (core/redirect/visit.ts → redirect), or null for core's own files. */
function featureOf(path: string): string | null {
  const rel = relative(CORE, path).split("/");
  return rel.length > 1 && rel[0] !== ".." ? rel[0]! : null;
}

const imports = sources(CORE).flatMap(importsOf);

/** Feature → features it imports (type-only imports count: a cycle of types is a cycle of knowledge). */
function featureGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const { from, to } of imports) {
    const a = featureOf(from);
    const b = featureOf(to);
    if (!a || !b || a === b) continue;
    if (!graph.has(a)) graph.set(a, new Map());
    if (!graph.get(a)!.has(b)) graph.get(a)!.set(b, `${relative(ROOT, from)} → ${relative(ROOT, to)}`);
  }
  return graph;
}

/** Each cycle of the graph, once, as the import lines that close it. */
function cyclesOf(graph: Map<string, Map<string, string>>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const walk = (node: string, path: string[]) => {
    for (const next of graph.get(node)?.keys() ?? []) {
      const at = path.indexOf(next);
      if (at >= 0) {
        const ring = [...path.slice(at), next];
        const key = [...ring.slice(0, -1)].sort().join(",");
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(ring.slice(0, -1).map((f, i) => graph.get(f)!.get(ring[i + 1]!)!));
        }
      } else walk(next, [...path, next]);
    }
  };
  for (const start of graph.keys()) walk(start, [start]);
  return cycles;
}

test("no import cycle between core/<feature> folders", () => {
  expect(cyclesOf(featureGraph())).toEqual([]);
});

test("the cycle check finds a cycle when there is one", () => {
  const graph = new Map([
    ["a", new Map([["b", "a.ts → b.ts"]])],
    ["b", new Map([["c", "b.ts → c.ts"]])],
    ["c", new Map([["a", "c.ts → a.ts"]])],
  ]);
  expect(cyclesOf(graph)).toEqual([["a.ts → b.ts", "b.ts → c.ts", "c.ts → a.ts"]]);
});

test("the click pipeline, the outbox delivery and the cluster primitives import no feature: their listeners, topics and cache followers are handed to them", () => {
  const graph = featureGraph();
  expect([...(graph.get("clicks")?.values() ?? [])]).toEqual([]);
  expect([...(graph.get("delivery")?.values() ?? [])]).toEqual([]);
  expect([...(graph.get("cluster")?.keys() ?? [])]).toEqual([]);
});

/** Where an import lands: the top-level folder (or file) of the repository it resolves to. */
const topOf = (path: string) => relative(ROOT, path).split("/")[0]!;

test("core/ keeps the domain and the kernel: it imports nothing from the composition root (app/), the adapters, jobs or the CLI", () => {
  const outside = new Set(["app", "api", "bot", "jobs", "cli", "main.ts", "cli.ts"]);
  const offending = imports.filter((i) => outside.has(topOf(i.to))).map((i) => `${relative(ROOT, i.from)} → ${relative(ROOT, i.to)}`);
  expect(offending).toEqual([]);
  // the wiring (files that import features to list them) lives in app/, none at core's top level
  const wiring = sources(CORE).filter(
    (f) => featureOf(f) === null && imports.some((i) => i.from === f && !i.typeOnly && featureOf(i.to) !== null),
  );
  expect(wiring.map((f) => relative(ROOT, f))).toEqual([]);
});

test("only the entry points use the composition root: api/, bot/, jobs/ and db/ import nothing from app/", () => {
  const adapters = ["api", "bot", "jobs", "db"].flatMap((d) => sources(join(ROOT, d)));
  const offending = adapters
    .flatMap(importsOf)
    .filter((i) => topOf(i.to) === "app")
    .map((i) => `${relative(ROOT, i.from)} → ${relative(ROOT, i.to)}`);
  expect(offending).toEqual([]);
  // and the service's entry points do build their dependencies there
  for (const entry of ["main.ts", "cli.ts"]) expect(importsOf(join(ROOT, entry)).some((i) => topOf(i.to) === "app")).toBe(true);
});

const code = ["app", "core", "api", "bot", "jobs", "cli", "db"]
  .flatMap((d) => sources(join(ROOT, d)))
  .concat([join(ROOT, "main.ts"), join(ROOT, "cli.ts")]);
const matches = (re: RegExp) =>
  code.flatMap((f) =>
    readFileSync(f, "utf8")
      .split("\n")
      .map((line, i) => ({ where: `${relative(ROOT, f)}:${i + 1}`, line }))
      .filter((l) => re.test(l.line))
      .map((l) => `${l.where}: ${l.line.trim()}`),
  );

test("the request side of a click lives in core/redirect/: only it records a click or takes a click number, and it is the visitor edge's only way into core's links", () => {
  // the click sink's record() and the click number are called in core/redirect/ and nowhere else
  expect(matches(/\b(sink|clicks)\.record\(/).map((l) => l.split(":")[0])).toEqual(["core/redirect/steps.ts"]);
  expect(
    matches(/\bnextClickNo\(\)/)
      .filter((l) => !l.startsWith("core/clicks/click-id.ts"))
      .map((l) => l.split(":")[0]),
  ).toEqual(["core/redirect/steps.ts"]);
  // what happens after the click is recorded (core/clicks/) knows nothing of how it was decided
  expect(imports.filter((i) => featureOf(i.from) === "clicks" && featureOf(i.to) === "redirect")).toEqual([]);
  // the visitor edge reaches the redirect, not the links feature's internals
  const visitor = sources(join(ROOT, "api/visitor")).flatMap(importsOf);
  expect(visitor.filter((i) => relative(ROOT, i.to).startsWith("core/links/")).map((i) => relative(ROOT, i.to))).toEqual([
    "core/links/codes.ts",
  ]);
});

test("no click column list by position outside the descriptor: both writers take the clicks table's columns from core/clicks/columns.ts", () => {
  expect(matches(/\b(insert into|copy) clicks \((?!\$\{)/i)).toEqual([]);
  expect(matches(/\bCLICK_COLUMNS\b|\bINSERTED_COLUMNS\b/).map((l) => l.split(":")[0])).toEqual(
    expect.arrayContaining(["core/clicks/writer.ts", "core/clicks/pg-batch.ts"]),
  );
});

test("write transactions begin IMMEDIATE through db/transaction.ts; none is opened on a database handle elsewhere", () => {
  expect(matches(/\bdb\.transaction\(/).filter((l) => !l.startsWith("db/transaction.ts"))).toEqual([]);
});

test("no transaction is cast to a database (DbOrTx types what takes either)", () => {
  expect(matches(/\bas unknown as (Db|Deps\["db"\])\b/)).toEqual([]);
});

test("no registry keyed by identity (WeakMap) in core, db or jobs: such state is built once and passed in Deps", () => {
  expect(matches(/\bWeakMap\b/).filter((l) => /^(core|db|jobs)\//.test(l))).toEqual([]);
});

test("service code queries only through the async seam: tables from the handle, no synchronous driver, no Deps.db", () => {
  // the click writer's SQLite form runs on a synchronous connection of its own (raw prepared
  // statements); the composition root builds it; the click columns' descriptor reads the table's
  // declaration (for both writers) and queries nothing
  const SQLITE_WRITER = new Set(["core/clicks/writer.ts", "app/index.ts", "core/clicks/columns.ts"]);
  const service = code.filter((f) => !relative(ROOT, f).startsWith("db/") && !SQLITE_WRITER.has(relative(ROOT, f)));
  expect(service.map((f) => relative(ROOT, f))).toContain("core/redirect/load.ts");
  const offending = service.flatMap((f) =>
    readFileSync(f, "utf8")
      .split("\n")
      .map((line, i) => ({ where: `${relative(ROOT, f)}:${i + 1}`, line }))
      .filter((l) =>
        /^import (?!type)[^;]*from "[./]*db\/(schema|client|transaction)"|\bdeps\.db\b|\.(all|get|run)\(\)|\bwriteTransaction\(/.test(
          l.line,
        ),
      )
      .map((l) => `${l.where}: ${l.line.trim()}`),
  );
  expect(offending).toEqual([]);
});

test("every table both databases have is declared once, in db/tables/ over the column kit; only PostgreSQL's own tables name a dialect", async () => {
  const declaring = matches(/\b(sqliteTable|pgTable)\(/).map((l) => l.split(":")[0]!);
  expect([...new Set(declaring)].sort()).toEqual(["db/schema-pg/cluster.ts", "db/schema-pg/storage.ts"]);
  const { declareTables } = await import("../db/tables");
  const { sqliteKit } = await import("../db/kit");
  const declared = Object.keys(declareTables(sqliteKit)).sort();
  // the dialects' schema modules export exactly the declared tables (plus PostgreSQL's own)
  const sqlite = await import("../db/schema");
  const pg = await import("../db/schema-pg");
  expect(Object.keys(sqlite).sort()).toEqual(declared);
  const { PG_ONLY_TABLES } = pg;
  const pgTables = Object.entries(pg)
    .filter(([, v]) => typeof v === "object" && v !== null && !Array.isArray(v))
    .map(([k]) => k);
  expect(pgTables.length).toBe(declared.length + PG_ONLY_TABLES.length);
  for (const name of declared) expect(pgTables).toContain(name);
});

test("the raw connection ($client) is used only in db/ and by the click writers", () => {
  const writers = ["core/clicks/writer.ts", "core/clicks/writer-pg.ts"];
  expect(matches(/\$client\b/).filter((l) => !l.startsWith("db/") && !writers.some((w) => l.startsWith(`${w}:`)))).toEqual([]);
});

test("click listeners are pure row producers: plain functions of (batch, now) with no engine twin, in modules that import only types from db/", async () => {
  const { CLICK_LISTENERS } = await import("../app/click-listeners");
  expect(CLICK_LISTENERS.length).toBeGreaterThan(0);
  for (const listener of CLICK_LISTENERS) {
    // a `postgres` (or any other) property glued on would be a second form of the listener
    expect({ name: listener.name, type: typeof listener, props: Object.keys(listener), arity: listener.length <= 2 }).toEqual({
      name: listener.name,
      type: "function",
      props: [],
      arity: true,
    });
  }
  // the modules the table takes its listeners from (its runtime imports of core features)
  const modules = importsOf(join(ROOT, "app", "click-listeners.ts"))
    .filter((i) => !i.typeOnly && featureOf(i.to) !== null)
    .map((i) => i.to);
  expect(modules.map((m) => relative(ROOT, m)).sort()).toEqual([
    "core/analytics/rollup.ts",
    "core/conversions/click-hook.ts",
    "core/webhooks/click-hook.ts",
  ]);
  const DB = join(ROOT, "db");
  const runtimeDb = [...modules, join(CORE, "clicks/listeners.ts")].flatMap((m) =>
    importsOf(m)
      .filter((i) => !i.typeOnly && i.to.startsWith(`${DB}/`))
      .map((i) => `${relative(ROOT, i.from)} → ${relative(ROOT, i.to)}`),
  );
  expect(runtimeDb).toEqual([]);
});

test("the bot narrows its context once (requireUser): no `.user!` assertion in bot/", () => {
  expect(matches(/\.user!/).filter((l) => l.startsWith("bot/"))).toEqual([]);
});

test("a screen's ids ride no side channel: no `ctx.view` in bot/, and `ctx.draw` is set in one place (nav.ts's draw)", () => {
  expect(matches(/\bctx\.view\b|\bview\?: number/).filter((l) => l.startsWith("bot/"))).toEqual([]);
  const sets = matches(/\.draw\s*(\?\?)?=[^=]/).filter((l) => l.startsWith("bot/"));
  expect(sets.map((l) => l.replace(/:\d+:/, ":"))).toEqual(["bot/menus/nav.ts: ctx.draw = { screen: screen.id, ids };"]);
});

test("one way to declare a screen: createScreen is given { load?, body }, and its data-driven buttons come from buttons() over the draw's model", () => {
  const declared = matches(/\bcreateScreen(<[^>]*>)?\(/).filter((l) => l.startsWith("bot/") && !l.includes("export function createScreen"));
  expect(declared.length).toBeGreaterThan(40);
  // the text as a bare function (the screen reading its own data beside its buttons) is gone
  expect(declared.filter((l) => !/createScreen(<[^>]*>)?\([^,]+,\s*\d+,\s*\{/.test(l))).toEqual([]);
  // no helper for ranges that load their own data: the plugin's own dynamic() only inside buttons() and where nothing is
  // loaded (the main menu's app button)
  const ranges = matches(/\bdynamic\(/).filter((l) => l.startsWith("bot/"));
  expect(ranges.map((l) => l.replace(/:\d+:/, ":")).sort()).toEqual([
    "bot/menus/nav.ts: screen.dynamic(async (ctx, range) => {",
    "bot/menus/root.ts: mainScreen.dynamic((ctx: BotContext, range) => {",
  ]);
  // a range draws from the model alone: its builder reads nothing of its own (no async builder to await a read in)
  const builders = matches(/\bbuttons(<[^>]*>)?\(\w+,/).filter((l) => l.startsWith("bot/"));
  expect(builders.length).toBeGreaterThan(25);
  expect(builders.filter((l) => /\bbuttons(<[^>]*>)?\(\w+,\s*async\b/.test(l))).toEqual([]);
});

test("bot menus import no feature, and reach the menu plugin only through its public API (no cast to its private render)", () => {
  const MENUS = join(ROOT, "bot", "menus");
  const FEATURES_DIR = join(ROOT, "bot", "features");
  const menuImports = sources(MENUS).flatMap(importsOf);
  expect(menuImports.length).toBeGreaterThan(0);
  expect(
    menuImports.filter((i) => i.to.startsWith(`${FEATURES_DIR}/`)).map((i) => `${relative(ROOT, i.from)} → ${relative(ROOT, i.to)}`),
  ).toEqual([]);
  expect(matches(/\brender\(|\bprepare\(|as unknown as \{/).filter((l) => l.startsWith("bot/"))).toEqual([]);
});

test("no Date.now() in core: wall time comes from deps.clock (a deadline may use performance.now())", () => {
  expect(matches(/\bDate\.now\(\)/).filter((l) => l.startsWith("core/"))).toEqual([]);
});

test("one definition per name and constant: ownedLink, the pixel types, the short-code pattern, the configuration's readers", () => {
  expect(matches(/function ownedLink\b/).map((l) => l.split(":")[0])).toEqual(["core/links/links.ts"]);
  expect(matches(/\["facebook", "google"/).map((l) => l.split(":")[0])).toEqual(["db/tables/links.ts"]);
  expect(matches(/\[A-Za-z0-9_-\]\{3,64\}/).map((l) => l.split(":")[0])).toEqual(["core/links/codes.ts"]);
  // the environment is read in config.ts (and its schema) only
  expect(matches(/process\.env\b/).filter((l) => !/^(config|config-schema)\.ts:/.test(l))).toEqual([]);
});

/**
 * The code of a TypeScript source with its comments and the text of its strings blanked out (the
 * expressions inside a template's `${…}` stay: the mini-app's htm templates hold code there).
 */
function codeOnly(src: string): string {
  let out = "";
  let i = 0;
  const depth: number[] = []; // open braces of each `${` being read, innermost last
  const template = () => {
    // from after a backquote (or a `}` closing `${`) to the closing backquote or the next `${`
    while (i < src.length && src[i] !== "`") {
      if (src[i] === "\\") i += 2;
      else if (src.startsWith("${", i)) {
        i += 2;
        out += " ${";
        depth.push(0);
        return;
      } else i++;
    }
    i++;
    out += "``";
  };
  while (i < src.length) {
    const c = src[i]!;
    if (src.startsWith("//", i)) while (i < src.length && src[i] !== "\n") i++;
    else if (src.startsWith("/*", i)) i = src.indexOf("*/", i + 2) + 2 || src.length;
    else if (c === '"' || c === "'") {
      for (i++; i < src.length && src[i] !== c; i++) if (src[i] === "\\") i++;
      i++;
      out += '""';
    } else if (c === "`") {
      i++;
      template();
    } else if (c === "{" && depth.length) {
      depth[depth.length - 1]!++;
      out += c;
      i++;
    } else if (c === "}" && depth.length && depth.at(-1) === 0) {
      depth.pop();
      out += "} ";
      i++;
      template();
    } else {
      if (c === "}" && depth.length) depth[depth.length - 1]!--;
      out += c;
      i++;
    }
  }
  return out;
}

test("the mini-app is typed end to end: no `any` in miniapp/src (its data comes typed from the API's client)", () => {
  // the check itself: an `any` in a template's expression counts, one in a comment or a string does not
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a sample of source text, read by the check
  expect(codeOnly("const a = html`<b onClick=${(e: any) => f(`${'any'}`)}>any</b>`; // any").match(/\bany\b/g)).toEqual(["any"]);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a sample of source text, read by the check
  expect(codeOnly('/* any */ const s = "any"; const t = `any ${1}`;')).not.toMatch(/\bany\b/);
  const found = sources(join(ROOT, "miniapp", "src")).flatMap((f) =>
    codeOnly(readFileSync(f, "utf8"))
      .split("\n")
      .filter((line) => /\bany\b/.test(line))
      .map((line) => `${relative(ROOT, f)}: ${line.trim()}`),
  );
  expect(found).toEqual([]);
});

test("one parse mode: every message is HTML by the transformer in core/delivery/parse-mode.ts; no call names parse_mode by hand", () => {
  const byHand = matches(/parse_mode/).filter((l) => !l.startsWith("core/delivery/parse-mode.ts:"));
  expect(byHand).toEqual([]);
  // and it is installed on each of the three Bot API clients: the bot's (its dialogs' too), the API's and the outbox worker's
  expect(
    matches(/config\.use\(htmlByDefault\)/)
      .map((l) => l.split(":")[0])
      .sort(),
  ).toEqual(["app/index.ts", "bot/bot.ts", "bot/bot.ts", "core/delivery/send-row.ts"]);
});
