/** Entry: Telegram detection, session, layout with tabs, routes. */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import "./styles.css";
import { isSignedIn, onSessionChange, useInitData } from "./api";
import { linkTo, match, navigate, useRoute } from "./router";
import { initTelegram, useBackButton } from "./telegram";
import { html } from "./ui";
import { SignIn } from "./pages/signin";
import { LinksPage } from "./pages/links";
import { LinkForm } from "./pages/link-form";
import { BulkPage } from "./pages/link-bulk";
import { LinkDetail } from "./pages/link-detail";
import { FoldersPage, FolderPage } from "./pages/secure";
import { FilePage } from "./pages/secure-file";
import { TrackersPage, MatchesPage } from "./pages/tracking";
import { TrackerForm } from "./pages/tracker-form";
import { SettingsPage } from "./pages/settings";

const TABS = [
  { path: "/links", label: "Links", icon: "🔗" },
  { path: "/secure", label: "Secure", icon: "🔒" },
  { path: "/tracking", label: "Tracking", icon: "🔎" },
  { path: "/settings", label: "Settings", icon: "⚙️" },
];

type Route = [string, (p: any) => any];
const ROUTES: Route[] = [
  ["/links", LinksPage],
  ["/links/new", LinkForm],
  ["/links/bulk", BulkPage],
  ["/links/:id", LinkDetail],
  ["/links/:id/edit", LinkForm],
  ["/secure", FoldersPage],
  ["/secure/folders/:id", FolderPage],
  ["/secure/files/:id", FilePage],
  ["/tracking", TrackersPage],
  ["/tracking/new", TrackerForm],
  ["/tracking/:id", MatchesPage],
  ["/tracking/:id/edit", TrackerForm],
  ["/settings", SettingsPage],
];

function Page({ path }: { path: string }) {
  for (const [pattern, C] of ROUTES) {
    const params = match(pattern, path);
    if (params) return html`<${C} ...${params} key=${path} />`;
  }
  return html`<div class="state empty">Page not found. <a href="/app/links" onClick=${linkTo("/links")}>Go to links</a></div>`;
}

function App() {
  const { path } = useRoute();
  const [signedIn, setSignedIn] = useState(isSignedIn());
  useEffect(() => onSessionChange(() => setSignedIn(isSignedIn())), []);
  const top = TABS.some((t) => t.path === path) || path === "/";
  useBackButton(signedIn && !top);
  useEffect(() => {
    if (signedIn && (path === "/" || path === "/signin")) navigate("/links", true);
  }, [signedIn, path]);
  if (!signedIn) return html`<${SignIn} />`;
  if (path === "/" || path === "/signin") return null;
  return html`<div class="layout">
    <nav class="tabs" aria-label="Sections">
      ${TABS.map(
        (t) => html`<a href=${"/app" + t.path} class=${path.startsWith(t.path) ? "tab active" : "tab"} onClick=${linkTo(t.path)}
          ><span class="tab-icon" aria-hidden="true">${t.icon}</span><span>${t.label}</span></a
        >`,
      )}
    </nav>
    <main class="content"><${Page} path=${path} /></main>
  </div>`;
}

async function boot() {
  const w = await initTelegram();
  if (w) {
    useInitData(w.initData);
    // Telegram puts launch parameters in the hash; drop them from the visible URL.
    if (location.hash.includes("tgWebApp")) history.replaceState(null, "", location.pathname + location.search);
  }
  const root = document.getElementById("app")!;
  root.textContent = ""; // the boot "Loading…" line: Preact renders beside foreign nodes, not over them
  render(html`<${App} />`, root);
}

void boot();
