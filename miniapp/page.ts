import type { MiniappBuild } from "./build";
import { languageFor, t, type Language } from "../core/i18n/translate";

/**
 * The language of the page before its script runs, from the browser's Accept-Language (Telegram's
 * in-app browser sends the device's): the tag with the highest weight, read as the bot reads a
 * Telegram language_code. The script then follows the account's choice.
 */
export function pageLanguage(acceptLanguage: string | null | undefined): Language {
  let best = { tag: "", q: 0 };
  for (const part of (acceptLanguage ?? "").split(",")) {
    const [tag = "", ...params] = part.trim().split(";");
    const q = Number(
      params
        .find((p) => p.trim().startsWith("q="))
        ?.trim()
        .slice(2) ?? 1,
    );
    if (tag && tag !== "*" && q > best.q) best = { tag, q };
  }
  return languageFor(null, best.tag);
}

/** The single HTML page of the app; every route under /app answers it and the client routes. */
export function indexHtml(build: MiniappBuild, language: Language): string {
  const css = build.entryCss ? `<link rel="stylesheet" href="/app/assets/${build.entryCss}">` : "";
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="light dark">
<title>${t(language, "app-title")}</title>
${css}
<script type="module" src="/app/assets/${build.entryJs}"></script>
</head>
<body>
<div id="app"><p class="boot">${t(language, "app-loading")}</p></div>
<noscript>${t(language, "app-needs-javascript")}</noscript>
</body>
</html>`;
}
