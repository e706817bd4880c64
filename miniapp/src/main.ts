/** Entry: Telegram detection, session, layout with tabs, routes. */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import "./styles.css";
import { call, client, currentWorkspace, isSignedIn, onSessionChange, useInitData } from "./api";
import { guessLanguage, onLanguageChange, setLanguage, setTimeZone, t, type Language } from "./i18n";
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
import { RequestsPage } from "./pages/secure-requests";
import { TrackersPage, MatchesPage } from "./pages/tracking";
import { ChannelsPage, ChannelPage } from "./pages/channels";
import { AdsPage, AdPage } from "./pages/ads";
import { TrackerForm } from "./pages/tracker-form";
import { SettingsPage } from "./pages/settings";
import { PostbacksPage } from "./pages/postbacks";
import { WorkspaceBar } from "./pages/workspace-bar";
import { MembersPage } from "./pages/members";
import { AuditPage } from "./pages/audit";

// Feather-style line icons (inline SVG: no icon font, no emoji font needed)
const ICONS: Record<string, string> = {
  links: "M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7",
  secure: "M5 11h14v10H5zM8 11V7a4 4 0 0 1 8 0v4",
  tracking: "M11 4a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM21 21l-5-5",
  ads: "M3 11v2a1 1 0 0 0 1 1h3l5 4V6L7 10H4a1 1 0 0 0-1 1zM16 9a3 3 0 0 1 0 6M19 6a7 7 0 0 1 0 12",
  channels: "M17 21v-2a4 4 0 0 0-4-4H5a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM23 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8",
  settings:
    "M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z",
};
const TABS = [
  { path: "/links", label: () => t("app-tab-links"), icon: "links" },
  { path: "/secure", label: () => t("app-tab-secure"), icon: "secure" },
  { path: "/tracking", label: () => t("app-tab-tracking"), icon: "tracking" },
  { path: "/channels", label: () => t("app-tab-channels"), icon: "channels" },
  { path: "/ads", label: () => t("app-tab-ads"), icon: "ads" },
  { path: "/settings", label: () => t("app-tab-settings"), icon: "settings" },
];

const Icon = ({ name }: { name: string }) =>
  html`<svg class="tab-icon" viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" stroke-width="2"
    stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d=${ICONS[name]} /></svg>`;

/** A path pattern and the page it shows (given the pattern's parameters, e.g. `id`). */
type Route = [string, (params: { id: string }) => unknown];
const ROUTES: Route[] = [
  ["/links", LinksPage],
  ["/links/new", LinkForm],
  ["/links/bulk", BulkPage],
  ["/links/:id", LinkDetail],
  ["/links/:id/edit", LinkForm],
  ["/secure", FoldersPage],
  ["/secure/folders/:id", FolderPage],
  ["/secure/files/:id", FilePage],
  ["/secure/requests", RequestsPage],
  ["/tracking", TrackersPage],
  ["/tracking/new", TrackerForm],
  ["/tracking/:id", MatchesPage],
  ["/tracking/:id/edit", TrackerForm],
  ["/channels", ChannelsPage],
  ["/channels/:id", ChannelPage],
  ["/ads", AdsPage],
  ["/ads/:id", AdPage],
  ["/settings", SettingsPage],
  ["/postbacks", PostbacksPage],
  ["/team", MembersPage],
  ["/team/audit", AuditPage],
];

function Page({ path }: { path: string }) {
  for (const [pattern, C] of ROUTES) {
    const params = match(pattern, path);
    if (params) return html`<${C} ...${params} key=${path} />`;
  }
  return html`<div class="state empty">${t("app-page-not-found")} <a href="/app/links" onClick=${linkTo("/links")}>${t("app-go-to-links")}</a></div>`;
}

function App() {
  const { path } = useRoute();
  const [signedIn, setSignedIn] = useState(isSignedIn());
  // another workspace chosen: every page is drawn again with its data
  const [workspace, setWorkspace] = useState(currentWorkspace());
  useEffect(
    () =>
      onSessionChange(() => {
        setSignedIn(isSignedIn());
        setWorkspace(currentWorkspace());
      }),
    [],
  );
  const lang = useLanguage(signedIn);
  const top = TABS.some((t) => t.path === path) || path === "/";
  useBackButton(signedIn && !top);
  useEffect(() => {
    if (signedIn && (path === "/" || path === "/signin")) navigate("/links", true);
  }, [signedIn, path]);
  if (!signedIn) return html`<${SignIn} />`;
  if (path === "/" || path === "/signin" || !lang) return null;
  return html`<div class="layout" key=${`${lang}:${workspace ?? ""}`}>
    <nav class="tabs" aria-label=${t("app-sections")}>
      ${TABS.map(
        (tab) => html`<a href=${"/app" + tab.path} class=${path.startsWith(tab.path) ? "tab active" : "tab"} onClick=${linkTo(tab.path)}
          ><${Icon} name=${tab.icon} /><span>${tab.label()}</span></a
        >`,
      )}
    </nav>
    <main class="content"><${WorkspaceBar} path=${path} /><${Page} path=${path} /></main>
  </div>`;
}

/**
 * The language of the signed-in account (the bot's), asked once per sign-in; null until known, so
 * no page shows in one language and then jumps to the other. The page redraws when it changes.
 */
function useLanguage(signedIn: boolean): Language | null {
  const [lang, setLang] = useState<Language | null>(null);
  useEffect(() => onLanguageChange(() => setLang(document.documentElement.lang as Language)), []);
  useEffect(() => {
    if (!signedIn) return setLang(null);
    let live = true;
    call(client.api.settings.get()).then(
      (s) => live && (setTimeZone(s.time_zone), setLanguage(s.language), setLang(s.language)),
      // an account whose settings cannot be read keeps the guessed language
      () => live && setLang(document.documentElement.lang as Language),
    );
    return () => void (live = false);
  }, [signedIn]);
  return lang;
}

async function boot() {
  const w = await initTelegram();
  setLanguage(guessLanguage(w?.initData));
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
