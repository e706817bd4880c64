/** Telegram Mini App integration: script loading, theme, BackButton and MainButton. */
import { useEffect, useRef } from "preact/hooks";

export interface WebApp {
  initData: string;
  colorScheme?: "light" | "dark";
  themeParams?: Record<string, string>;
  ready(): void;
  expand?(): void;
  onEvent?(event: string, fn: () => void): void;
  offEvent?(event: string, fn: () => void): void;
  BackButton?: { show(): void; hide(): void; onClick(fn: () => void): void; offClick(fn: () => void): void };
  MainButton?: {
    setText(t: string): void;
    show(): void;
    hide(): void;
    enable(): void;
    disable(): void;
    showProgress?(leaveActive?: boolean): void;
    hideProgress?(): void;
    onClick(fn: () => void): void;
    offClick(fn: () => void): void;
  };
  HapticFeedback?: { notificationOccurred(type: "error" | "success" | "warning"): void };
  openLink?(url: string): void;
}

const SCRIPT = "https://telegram.org/js/telegram-web-app.js";
let webApp: WebApp | null = null;

export function tg(): WebApp | null {
  return webApp;
}

function current(): WebApp | null {
  const w = (window as any).Telegram?.WebApp as WebApp | undefined;
  return w && w.initData ? w : null;
}

/**
 * Returns the WebApp object when the page was opened by Telegram (launch parameters in the URL
 * hash), loading Telegram's script only then; null in an ordinary browser.
 */
export async function initTelegram(): Promise<WebApp | null> {
  let w = current();
  const launched = /tgWebApp(Data|Platform)/.test(location.hash + location.search);
  if (!w && launched && !(window as any).Telegram?.WebApp) {
    await new Promise<void>((resolve) => {
      const s = document.createElement("script");
      s.src = SCRIPT;
      s.onload = s.onerror = () => resolve();
      document.head.appendChild(s);
    });
    w = current();
  }
  if (!w) return null;
  webApp = w;
  applyTheme(w);
  w.onEvent?.("themeChanged", () => applyTheme(w!));
  w.ready();
  w.expand?.();
  return w;
}

const VARS: Record<string, string> = {
  bg_color: "--bg",
  secondary_bg_color: "--bg2",
  text_color: "--text",
  hint_color: "--hint",
  link_color: "--link",
  button_color: "--accent",
  button_text_color: "--accent-text",
  destructive_text_color: "--danger",
  section_separator_color: "--border",
};

function applyTheme(w: WebApp) {
  const root = document.documentElement;
  root.dataset.theme = w.colorScheme ?? "light";
  for (const [k, v] of Object.entries(w.themeParams ?? {})) if (VARS[k] && v) root.style.setProperty(VARS[k]!, v);
}

/** Shows Telegram's BackButton while `show` is true; it goes back in history. */
export function useBackButton(show: boolean) {
  useEffect(() => {
    const b = webApp?.BackButton;
    if (!b) return;
    const back = () => history.back();
    if (show) {
      b.show();
      b.onClick(back);
    } else b.hide();
    return () => b.offClick(back);
  }, [show]);
}

/**
 * Uses Telegram's MainButton for a page's primary action (returns true so the page can hide its own
 * button); in a browser returns false and the page renders its own button.
 */
export function useMainButton(text: string, onClick: () => void, opts: { busy?: boolean; enabled?: boolean } = {}): boolean {
  const cb = useRef(onClick);
  cb.current = onClick;
  const m = webApp?.MainButton;
  useEffect(() => {
    if (!m) return;
    const fn = () => cb.current();
    m.onClick(fn);
    return () => {
      m.offClick(fn);
      m.hide();
    };
  }, [m]);
  useEffect(() => {
    if (!m) return;
    m.setText(text);
    m.show();
    if (opts.enabled === false) m.disable();
    else m.enable();
    if (opts.busy) m.showProgress?.(false);
    else m.hideProgress?.();
  }, [m, text, opts.busy, opts.enabled]);
  return Boolean(m);
}

export function haptic(type: "error" | "success" | "warning") {
  webApp?.HapticFeedback?.notificationOccurred(type);
}
