import type { MiniappBuild } from "./build";

/** The single HTML page of the app; every route under /app answers it and the client routes. */
export function indexHtml(build: MiniappBuild): string {
  const css = build.entryCss ? `<link rel="stylesheet" href="/app/assets/${build.entryCss}">` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="light dark">
<title>Dashboard</title>
${css}
<script type="module" src="/app/assets/${build.entryJs}"></script>
</head>
<body>
<div id="app"><p class="boot">Loading…</p></div>
<noscript>This dashboard needs JavaScript.</noscript>
</body>
</html>`;
}
