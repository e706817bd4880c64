import type { MiniappBuild } from "./build";
import { t, type Language } from "../core/i18n/translate";

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
