/** Telegram Mini App integration: script loading, theme, BackButton and MainButton. */
import type { RefObject } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";

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

/** What Telegram's script adds to the page. */
const telegramOf = () => (window as unknown as { Telegram?: { WebApp?: WebApp } }).Telegram;

function current(): WebApp | null {
  const w = telegramOf()?.WebApp;
  return w && w.initData ? w : null;
}

/**
 * Returns the WebApp object when the page was opened by Telegram (launch parameters in the URL
 * hash), loading Telegram's script only then; null in an ordinary browser.
 */
export async function initTelegram(): Promise<WebApp | null> {
  let w = current();
  const launched = /tgWebApp(Data|Platform)/.test(location.hash + location.search);
  if (!w && launched && !telegramOf()?.WebApp) {
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

// Layout effects, not effects: Preact runs effects only after the next paint, so the page would be
// on screen (and clickable) before Telegram's buttons matched it.

/** Shows Telegram's BackButton while `show` is true; it goes back in history. */
export function useBackButton(show: boolean) {
  useLayoutEffect(() => {
    const b = webApp?.BackButton;
    if (!b) return;
    if (!show) return void b.hide();
    const back = () => history.back();
    b.show();
    b.onClick(back);
    return () => b.offClick(back);
  }, [show]);
}

export interface MainButtonState {
  /** progress spinner, clicks ignored (saving, or the form still loading) */
  busy?: boolean;
  enabled?: boolean;
  /** false hides the button (the page has no form to submit right now) */
  visible?: boolean;
}

/**
 * Uses Telegram's MainButton as the submit button of `form` while the calling component is mounted:
 * a click submits the form as its own submit button would (`requestSubmit`, so the browser's
 * validation runs first); leaving the page hides it. Returns true inside Telegram, so the page
 * leaves out its own submit button; false in a browser.
 */
export function useMainButton(
  text: string,
  form: RefObject<HTMLFormElement | null>,
  { busy = false, enabled = true, visible = true }: MainButtonState = {},
): boolean {
  const m = webApp?.MainButton;
  const blocked = useRef(false);
  blocked.current = busy || !enabled || !visible;
  useLayoutEffect(() => {
    if (!m) return;
    const click = () => {
      if (!blocked.current) form.current?.requestSubmit();
    };
    m.onClick(click);
    return () => {
      m.offClick(click);
      m.hide();
    };
  }, [m]);
  useLayoutEffect(() => {
    if (!m) return;
    if (!visible) return void m.hide();
    m.setText(text);
    if (enabled) m.enable();
    else m.disable();
    if (busy) m.showProgress?.(false);
    else m.hideProgress?.();
    m.show();
  }, [m, text, busy, enabled, visible]);
  return Boolean(m);
}
