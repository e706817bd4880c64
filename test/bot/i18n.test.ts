/**
 * The language files against the code (docs/bot.md, "Languages"):
 * - en.ftl and ru.ftl have the same keys, each with the same variables;
 * - every key the code names exists, with every variable its text uses given at the call; no key is unused;
 * - bot/ holds no user-facing English: no string literal with words in it outside translations
 *   (a log line, an error for developers and a comment are not user-facing), and nothing but a
 *   translation passed as the text of reply, editMessageText, answerCallbackQuery or a button.
 * - the mini-app (miniapp/src) names its keys (all `app-…`) the same way, and shows no English literal:
 *   no text between tags of its html`…` templates, no placeholder, label, title or alt attribute, and
 *   no string with words in it (a toast, a confirm question) outside the language files.
 * Files not converted yet are listed in NOT_YET_CONVERTED (bot) and MINIAPP_NOT_YET_CONVERTED, printed
 * on every run, and the test fails when one of them is converted but still listed, so the lists only shrink.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
const BOT = join(ROOT, "bot");
const MINIAPP = join(ROOT, "miniapp", "src");

/** Files of miniapp/src whose texts are still English literals (none left: a new one must not be added). */
const MINIAPP_NOT_YET_CONVERTED: string[] = [];

/** Names shown as they are in both languages. */
const BRANDS = new Set(["CSV", "PDF", "Excel", "Telegram", "QR", "URL", "API", "OS", "Android", "Windows", "Linux", "macOS", "iOS"]);
/** A list of country or language codes given as an example (DE, AT). */
const CODES = /^[A-Za-z]{2}(,\s*[A-Za-z]{2})*$/;
/** Words of the protocol, never shown: the HTTP authorization scheme. */
const PROTOCOL = new Set(["Bearer"]);

/** Files of bot/ whose texts are still English literals (to convert; see the report of issue 29). */
const NOT_YET_CONVERTED: string[] = [];

/** Files whose strings no user sees, and why. */
const NOT_USER_FACING: Record<string, string> = {
  "bot/runtime.ts": "its texts answer Telegram's servers (webhook HTTP answers), not a person",
};

/** Keys the code builds from a prefix: `command-<name>`, `field-<api field>`, `problem-<error code>`, `period-<period>`, `request-state-<state>`, export columns, `query-problem-<reason>` (why a tracker query does not parse). */
const DYNAMIC_PREFIXES = [
  "command-",
  "field-",
  "problem-",
  "check-",
  "plan-",
  "period-",
  "period-typed-",
  "request-state-",
  "weekday-",
  "export-column-",
  "journal-column-",
  "journal-via-",
  "scope-",
  "secure-state-",
  "secure-kind-",
  "device-",
  "ads-period-",
  "ads-sort-",
  "ads-by-",
  "ads-column-",
  "ads-set-",
  "query-problem-",
  "secure-page-kind-",
  "secure-error-",
  "secure-page-show-",
  "secure-page-password-",
  "secure-page-403-",
  "secure-page-404-",
  "secure-page-410-",
  "secure-page-429-",
  "ws-role-",
  "ws-audit-column-",
];

/** Fluent entries: key → its text (continuation lines included). */
function entries(file: string): Map<string, string> {
  const out = new Map<string, string>();
  let key = "";
  for (const line of readFileSync(join(ROOT, "locales", file), "utf8").split("\n")) {
    const head = /^([a-z][\w-]*)\s*=(.*)$/.exec(line);
    if (head) out.set((key = head[1]!), head[2]!);
    else if (/^\s/.test(line) && key) out.set(key, `${out.get(key)}\n${line}`);
    else if (line.startsWith("#") || !line.trim()) key = "";
  }
  return out;
}
// a Fluent variable starts with a letter: "$50" in a text is a price, not a variable
const vars = (text: string) => new Set([...text.matchAll(/\$([A-Za-z]\w*)/g)].map((m) => m[1]!));

function tree(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tree(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/**
 * The code that speaks to people: bot/, the files of core/ that write what the service sends on its
 * own (reports, notifications, digests, exports, charts), and the public pages of api/: those that
 * translate.
 */
function sources(): string[] {
  const translates = (f: string) => /from "(\.\.\/)+(core\/)?i18n\/translate"|from "\.\/translate"/.test(readFileSync(f, "utf8"));
  const core = tree(join(ROOT, "core")).filter(translates);
  // the public pages (short links, secure sharing) are written by the server in the visitor's language
  const pages = tree(join(ROOT, "api")).filter(translates);
  // the mini-app's page before its script runs (miniapp/page.ts) is written by the server in the reader's language
  return [...tree(BOT), ...core, ...pages, ...tree(MINIAPP), join(ROOT, "miniapp", "page.ts")];
}

/** The code without comments (line comments, block comments), keeping strings (URLs keep their //). */
function code(src: string): string {
  return src
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")
    .replace(/\s\/\/ .*$/gm, "");
}

/** String literals of a file with their line, `${…}` parts of templates blanked. */
function literals(src: string): { text: string; line: number; index: number }[] {
  const out: { text: string; line: number; index: number }[] = [];
  const re = /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g;
  for (const m of src.matchAll(re)) {
    // a nested template ends the match early: a `${` left open is code to its end
    const text = (m[1] ?? m[2] ?? m[3] ?? "").replace(/\$\{[^}]*\}/g, " ").replace(/\$\{[^}]*$/, " ");
    out.push({ text, line: src.slice(0, m.index).split("\n").length, index: m.index! });
  }
  return out;
}

/**
 * Lines that are not user-facing: logs, developer errors, imports. `new NotFound("Tag")` names the
 * missing thing for the English error text; other languages say it in their own words (bot/problem.ts).
 */
const EXEMPT_LINE =
  /new NotFound\(|deps\.log\.|\.log\.(info|warn|error)|new Error\(|throw new \w*Error\(|^\s*import |from "|console\.|RegExp\(/;
/** Two words of letters in a row: an English phrase. */
const PROSE = /[A-Za-z]{2,}[,.;:!?’'—-]*\s+[A-Za-z]{2,}/;
/** Where a literal would be a text a user sees: the text of a message, a toast or a button. */
const SHOWN =
  /(?:\.reply|\.editMessageText|\.answerCallbackQuery|\.sendMessage|\.editMessageCaption|\.replyWithPhoto|\.replyWithDocument)\(\s*$|\b(?:text|caption):\s*$|\bgo\(\s*[^,()]+,\s*[^,()]+,\s*$|\bback\(\s*[^,()]+,\s*$|\.(?:text|url|webApp|switchInline)\(\s*$/;

/**
 * The English a file would show. In bot/ every phrase counts; in core/ only what lands in a message
 * (its text, a caption, a button): core's other strings are the API's English errors, SQL and logs.
 */
function violations(file: string): string[] {
  const src = code(readFileSync(file, "utf8"));
  const lines = src.split("\n");
  const found: string[] = [];
  const inBot = relative(ROOT, file).startsWith("bot/");
  for (const lit of inBot ? literals(src) : []) {
    const line = lines[lit.line - 1] ?? "";
    if (EXEMPT_LINE.test(line)) continue;
    if (PROSE.test(lit.text) && !/^[\w./:-]+$/.test(lit.text.trim())) found.push(`${lit.line}: ${lit.text.trim().slice(0, 60)}`);
  }
  for (const lit of literals(src)) {
    const before = src.slice(Math.max(0, lit.index - 120), lit.index);
    if (SHOWN.test(before) && /[A-Za-z]{2,}/.test(lit.text) && !EXEMPT_LINE.test(lines[lit.line - 1] ?? ""))
      found.push(`${lit.line}: shown literal: ${lit.text.trim().slice(0, 60)}`);
  }
  return [...new Set(found)];
}

/**
 * The pieces of a mini-app file a user may see: the static text of each template (its `${…}` parts
 * replaced by \u0000; `markup` when tagged html) and each quoted string in code, with their line.
 */
function pieces(src: string): { text: string; markup: boolean; line: number }[] {
  const out: { text: string; markup: boolean; line: number }[] = [];
  const lineAt = (i: number) => src.slice(0, i).split("\n").length;
  // the stack of open templates: their text so far, whether html, and the brace depth of their current ${…}
  const open: { text: string; markup: boolean; line: number; depth: number }[] = [];
  let i = 0;
  while (i < src.length) {
    const top = open[open.length - 1];
    const c = src[i]!;
    if (top && top.depth === 0) {
      // inside a template's text
      if (c === "\\") (top.text += src.slice(i, i + 2)), (i += 2);
      else if (c === "`") out.push(open.pop()!), i++;
      else if (c === "$" && src[i + 1] === "{") (top.text += "\u0000"), (top.depth = 1), (i += 2);
      else (top.text += c), i++;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c && src[j] !== "\n") j += src[j] === "\\" ? 2 : 1;
      out.push({ text: src.slice(i + 1, j), markup: false, line: lineAt(i) });
      i = j + 1;
    } else if (c === "`") {
      open.push({ text: "", markup: /\bhtml\s*$/.test(src.slice(Math.max(0, i - 8), i)), line: lineAt(i), depth: 0 });
      i++;
    } else {
      if (top && c === "{") top.depth++;
      if (top && c === "}") top.depth--;
      i++;
    }
  }
  return out;
}

/** Every class name styles.css defines: a string made only of them is a class list, not words. */
const CSS_CLASSES = new Set([...readFileSync(join(MINIAPP, "styles.css"), "utf8").matchAll(/\.([a-z][\w-]*)/g)].map((m) => m[1]!));
/** An example value (go.example.com, you@example.com) rather than words. */
const EXAMPLE = /^[\w.+-]+@[\w.-]+$|^[\w-]+(\.[\w-]+)+$/;
/**
 * The words of a shown text, leaving out what reads the same in every language: URLs, names with an
 * underscore (utm_source), acronyms in capitals (POST, DNS, TXT) and product names.
 */
const words = (text: string) =>
  text
    .replace(/&\w+;|https?:\/\/\S*|\b\w*_\w*\b/g, " ")
    .split(/[^A-Za-z]+/)
    .filter((w) => w.length >= 2 && !BRANDS.has(w) && !/^[A-Z]+$/.test(w));

/** The English a mini-app file would show: text between tags, visible attributes, and strings with words. */
function miniappViolations(file: string): string[] {
  const src = code(readFileSync(file, "utf8"));
  const lines = src.split("\n");
  const found: string[] = [];
  for (const p of pieces(src)) {
    if (EXEMPT_LINE.test(lines[p.line - 1] ?? "")) continue;
    if (p.markup) {
      const attrs = [...p.text.matchAll(/\b(?:placeholder|aria-label|title|alt|label)="([^"]*)"/g)]
        .map((m) => m[1]!)
        .filter((v) => !EXAMPLE.test(v));
      const texts = p.text.replace(/<[^>]*>/g, "\u0000").split("\u0000");
      for (const text of [...attrs, ...texts]) if (words(text).length) found.push(`${p.line}: ${text.trim().slice(0, 60)}`);
    } else {
      const t = p.text.split("\u0000").join(" ").trim();
      // a class list, or a style (height:220px)
      const classes =
        t.split(/\s+/).every((w) => CSS_CLASSES.has(w) || /^[a-z]+(-[a-z]+)+$/.test(w)) || /^([a-z-]+:[^;A-Z]*;?\s*)+$/.test(t);
      if ((PROSE.test(t) && !classes && !CODES.test(t)) || (/^[A-Z][a-z]+$/.test(t) && !BRANDS.has(t) && !PROTOCOL.has(t)))
        found.push(`${p.line}: ${t.slice(0, 60)}`);
    }
  }
  return [...new Set(found)];
}

const en = entries("en.ftl");
const ru = entries("ru.ftl");

describe("language files", () => {
  test("no key is defined twice in a file (Fluent would keep only one of them)", () => {
    for (const file of ["en.ftl", "ru.ftl"]) {
      const keys = readFileSync(join(ROOT, "locales", file), "utf8")
        .split("\n")
        .map((l) => /^([a-z][\w-]*)\s*=/.exec(l)?.[1])
        .filter(Boolean);
      expect({ file, twice: keys.filter((k, i) => keys.indexOf(k) !== i) }).toEqual({ file, twice: [] });
    }
  });

  test("en.ftl and ru.ftl have the same keys with the same variables", () => {
    expect(en.size).toBeGreaterThan(100);
    expect([...ru.keys()].filter((k) => !en.has(k))).toEqual([]);
    expect([...en.keys()].filter((k) => !ru.has(k))).toEqual([]);
    const differing = [...en].filter(([k, text]) => [...vars(text)].sort().join() !== [...vars(ru.get(k) ?? "")].sort().join());
    expect(differing.map(([k]) => k)).toEqual([]);
  });

  test("no Russian text is left in English and no English sentence in Russian", () => {
    const cyrillic = /[А-Яа-яЁё]/;
    // English values may hold Russian only as the name of the other language (the switch button) and as examples of Russian word forms
    expect(
      [...en]
        .filter(
          ([k, v]) =>
            cyrillic.test(v) &&
            !["settings-switch-language", "tracker-prompt-word-forms", "app-language-ru", "app-tracker-word-forms"].includes(k),
        )
        .map(([k]) => k),
    ).toEqual([]);
    // a Russian value with no Cyrillic letter is a left-over English one, unless it is only names, emoji and markup
    const latinOnly = [...ru].filter(([, v]) => !cyrillic.test(v) && PROSE.test(v.replace(/<[^>]*>|\{[^}]*\}/g, " ")));
    expect(
      latinOnly
        .map(([k]) => k)
        .filter(
          (k) =>
            ![
              "settings-switch-language",
              "settings-sign-in-telegram",
              "field-utm_source",
              "field-utm_medium",
              "field-utm_campaign",
            ].includes(k),
        ),
    ).toEqual([]);
  });

  test("every key the code names exists and gets the variables its texts use; no key is unused", () => {
    const files = sources();
    const named = new Map<string, string[]>(); // key → the argument text of each call
    const literalsInCode = new Set<string>();
    for (const file of files) {
      const src = code(readFileSync(file, "utf8"));
      for (const lit of literals(src)) literalsInCode.add(lit.text);
      // t("key", { … }) / l("key", { … }) / i18n.t(lang, "key", { … }) / say(lang, "key") on the public pages; keys chosen by a ternary inside t(…)
      for (const m of src.matchAll(/\b(?:t|l|say)\(\s*(?:[\w.]+,\s*)?"([\w-]+)"(\s*,\s*\{)?/g)) {
        let args = "";
        if (m[2]) {
          let depth = 1;
          let i = m.index! + m[0].length;
          for (; i < src.length && depth; i++) depth += src[i] === "{" ? 1 : src[i] === "}" ? -1 : 0;
          args = src.slice(m.index! + m[0].length, i - 1);
        }
        if (m[1] === "en" || m[1] === "ru") continue; // i18n.t("en", key): a language, not a key
        named.set(m[1]!, [...(named.get(m[1]!) ?? []), args]);
      }
      for (const m of src.matchAll(/\b(?:t|say)\(\s*[^"()]*\?\s*"([\w-]+)"\s*:\s*"([\w-]+)"/g))
        for (const k of [m[1]!, m[2]!]) named.set(k, [...(named.get(k) ?? []), "*"]);
    }
    // keys the mini-app builds from a prefix in a template, t(`app-period-${p}`): only prefixes the code uses count
    const builtPrefixes = files.flatMap((f) => [...code(readFileSync(f, "utf8")).matchAll(/\bt\(\s*`(app-[\w-]*)\$\{/g)].map((m) => m[1]!));
    expect(builtPrefixes.length).toBeGreaterThan(0);
    expect([...named.keys()].filter((k) => !en.has(k))).toEqual([]);
    const missingVars: string[] = [];
    for (const [key, calls] of named) {
      const needed = vars(en.get(key) ?? "");
      for (const args of calls) {
        if (args === "*" || !needed.size) continue;
        // { name } shorthand and { name: … } alike; a spread (…) may give anything
        if (args.includes("...")) continue;
        const given = new Set([...args.matchAll(/(?:^|,)\s*(\w+)\s*(?=[:,]|$)/g)].map((m) => m[1]!));
        for (const v of needed) if (!given.has(v)) missingVars.push(`${key}: $${v}`);
      }
    }
    expect(missingVars).toEqual([]);
    const unused = [...en.keys()].filter(
      (k) =>
        !literalsInCode.has(k) &&
        !named.has(k) &&
        !DYNAMIC_PREFIXES.some((p) => k.startsWith(p)) &&
        !builtPrefixes.some((p) => k.startsWith(p)),
    );
    expect(unused).toEqual([]);
  });
});

describe("no user-facing string outside the language files", () => {
  const files = sources();
  const byFile = new Map(
    files.filter((f) => !(relative(ROOT, f) in NOT_USER_FACING) && !f.startsWith(MINIAPP)).map((f) => [relative(ROOT, f), violations(f)]),
  );

  test("the bot and the messages core sends hold only translations (files not converted yet are listed, not skipped)", () => {
    expect(files.some((f) => f.endsWith("core/reports/report.ts"))).toBe(true);
    const unconverted = [...byFile]
      .filter(([, v]) => v.length)
      .map(([f]) => f)
      .sort();
    if (NOT_YET_CONVERTED.length)
      console.warn(`Not yet converted to the language files (${NOT_YET_CONVERTED.length}):\n  ${NOT_YET_CONVERTED.join("\n  ")}`);
    const offenders = unconverted.filter((f) => !NOT_YET_CONVERTED.includes(f));
    expect(offenders.map((f) => `${f}\n    ${byFile.get(f)!.join("\n    ")}`)).toEqual([]);
    // a converted file leaves the list
    expect(NOT_YET_CONVERTED.filter((f) => !unconverted.includes(f))).toEqual([]);
  });

  test("the mini-app shows only translations (files not converted yet are listed, not skipped)", () => {
    const app = tree(MINIAPP).map((f) => [relative(ROOT, f), miniappViolations(f)] as const);
    expect(app.length).toBeGreaterThan(20);
    const unconverted = app
      .filter(([, v]) => v.length)
      .map(([f]) => f)
      .sort();
    if (MINIAPP_NOT_YET_CONVERTED.length)
      console.warn(`Mini-app files not yet converted (${MINIAPP_NOT_YET_CONVERTED.length}):\n  ${MINIAPP_NOT_YET_CONVERTED.join("\n  ")}`);
    const offenders = app.filter(([f, v]) => v.length && !MINIAPP_NOT_YET_CONVERTED.includes(f));
    expect(offenders.map(([f, v]) => `${f}\n    ${v.join("\n    ")}`)).toEqual([]);
    expect(MINIAPP_NOT_YET_CONVERTED.filter((f) => !unconverted.includes(f))).toEqual([]);
    // every key the mini-app names is one of its own
    const keys = app.flatMap(([f]) =>
      [...code(readFileSync(join(ROOT, f), "utf8")).matchAll(/\bt\(\s*(?:[^"()]*\?\s*)?"([\w-]+)"/g)].map((m) => m[1]!),
    );
    expect(keys.length).toBeGreaterThan(100);
    expect(keys.filter((k) => !k.startsWith("app-"))).toEqual([]);
  });

  test("the mini-app scan sees English text, attributes and toasts, and lets translations, classes and examples pass", () => {
    const probe = join(MINIAPP, "__probe__.ts");
    const samples = [
      "html`<h1>Links</h1>`;",
      'html`<input placeholder="Search links" />`;',
      'run(() => go(), "Link deleted");',
      "html`<p>${n} <span>clicks</span></p>`;",
      'const label = "Settings";',
    ];
    for (const sample of samples) {
      Bun.write(probe, sample);
      expect({ sample, found: miniappViolations(probe).length > 0 }).toEqual({ sample, found: true });
    }
    const fine = [
      'html`<h1 class="page-head">${t("app-links-title")}</h1>`;',
      'html`<input placeholder="you@example.com" class=${on ? "chip on" : "chip"} />`;',
      "get(`/api/links/${id}`);",
      "// Some words in a comment",
    ];
    for (const sample of fine) {
      Bun.write(probe, sample);
      expect({ sample, found: miniappViolations(probe) }).toEqual({ sample, found: [] });
    }
    require("node:fs").unlinkSync(probe);
  });

  test("every file of core/ that sends to a chat translates (the delivery mechanism only carries what it is given)", () => {
    const sending = tree(join(ROOT, "core")).filter(
      (f) => !relative(ROOT, f).startsWith("core/delivery/") && /\b(queueBotMessage|sendToUserChat)\(/.test(code(readFileSync(f, "utf8"))),
    );
    expect(sending.length).toBeGreaterThan(5);
    expect(sending.filter((f) => !files.includes(f)).map((f) => relative(ROOT, f))).toEqual([]);
  });

  test("the scan sees English literals (a sentence, a button label, a toast)", () => {
    const probe = join(import.meta.dir, "..", "..", "bot", "__probe__.ts");
    const samples = [
      'await ctx.reply("Link created.");',
      'range.text("OK", go);',
      'await ctx.answerCallbackQuery({ text: "Done" });',
      "await open(ctx, s, [], `Saved ${n} links`);",
    ];
    for (const sample of samples) {
      Bun.write(probe, sample);
      expect(violations(probe).length).toBeGreaterThan(0);
    }
    for (const fine of ['await ctx.reply(ctx.t("link-created"));', 'deps.log.info("bot is polling now");', "// a comment in words"]) {
      Bun.write(probe, fine);
      expect(violations(probe)).toEqual([]);
    }
    require("node:fs").unlinkSync(probe);
  });
});
