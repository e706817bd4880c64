/** Shared UI pieces: htm binding, async state, loading/empty/error views, copy button, toasts. */
import { h, type ComponentChildren } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import htm from "htm";
import { ApiError } from "./api";
import { fmtNumber, language, t, timeZone } from "./i18n";

export const html = htm.bind(h);

export interface AsyncState<T> {
  data: T | undefined;
  error: Error | null;
  loading: boolean;
  reload: () => void;
  setData: (d: T) => void;
}

/** Runs `fn` when `deps` change; exposes loading, error and data. */
export function useAsync<T>(fn: () => Promise<T>, deps: unknown[]): AsyncState<T> {
  const [state, setState] = useState<{ data?: T; error: Error | null; loading: boolean }>({ error: null, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    fn().then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error) => live && setState({ error, loading: false }),
    );
    return () => void (live = false);
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const setData = useCallback((data: T) => setState({ data, error: null, loading: false }), []);
  return { data: state.data, error: state.error, loading: state.loading, reload, setData };
}

function Loading({ label }: { label?: string }) {
  return html`<div class="state loading" role="status"><span class="spinner"></span>${label ?? t("app-loading")}</div>`;
}

export function Empty({ children }: { children: ComponentChildren }) {
  return html`<div class="state empty">${children}</div>`;
}

export function ErrorBox({ error, retry }: { error: Error | string; retry?: () => void }) {
  const msg = typeof error === "string" ? error : error.message;
  return html`<div class="state error" role="alert">
    <span>${msg}</span>${retry && html` <button class="link-btn" onClick=${retry}>${t("app-try-again")}</button>`}
  </div>`;
}

/** Renders loading / error / content for an AsyncState. */
export function Async<T>({ state, children }: { state: AsyncState<T>; children: (d: T) => ComponentChildren }) {
  if (state.error) return html`<${ErrorBox} error=${state.error} retry=${state.reload} />`;
  if (state.data === undefined) return html`<${Loading} />`;
  return children(state.data);
}

/** The data an AsyncState holds once loaded (to name it where a template hands it to a function). */
export type Loaded<S> = S extends AsyncState<infer T> ? T : never;

/** The form control an event came from (its `value`, `checked` and `files`). */
const control = (e: Event) => e.currentTarget as HTMLInputElement;
/** The value of the input, select or textarea an event came from. */
export const inputValue = (e: Event): string => control(e).value;
/** Whether the checkbox an event came from is checked. */
export const inputChecked = (e: Event): boolean => control(e).checked;
/** The first file chosen in the file input an event came from. */
export const inputFile = (e: Event): File | null => control(e).files?.[0] ?? null;

let toastTimer: ReturnType<typeof setTimeout> | undefined;
/** A short message at the bottom of the screen. */
export function toast(text: string, kind: "ok" | "error" = "ok") {
  let el = document.getElementById("toast");
  if (!el) {
    el = document.createElement("div");
    el.id = "toast";
    el.setAttribute("role", "status");
    document.body.appendChild(el);
  }
  el.textContent = text;
  el.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el!.classList.remove("show"), 3000);
}

export function CopyButton({ text, label }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const ta = document.createElement("textarea");
      ta.value = text;
      document.body.appendChild(ta);
      ta.select();
      document.execCommand("copy");
      ta.remove();
    }
    setDone(true);
    setTimeout(() => setDone(false), 1500);
  };
  return html`<button type="button" class="btn small" onClick=${copy}>${done ? t("app-copied") : (label ?? t("app-copy"))}</button>`;
}

/** Runs an action with a busy flag and reports its error as a toast. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const run = async <T>(fn: () => Promise<T>, ok?: string): Promise<T | undefined> => {
    setBusy(true);
    try {
      const r = await fn();
      if (ok) toast(ok);
      return r;
    } catch (e) {
      toast(errorText(e), "error");
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

/**
 * Runs a form's submit with a busy flag; its error is kept for an inline ErrorBox. With `form`, the
 * fields a validation error names are marked invalid with the server's message (shown by the
 * browser at the field, which gets the focus) until they are edited.
 */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const attempt = async (fn: () => Promise<unknown>, form?: HTMLFormElement | null) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(errorText(e));
      // the message is at the top of the form: show it when no field is marked (e.g. a plan limit)
      if (form && !markInvalid(form, e)) form.scrollIntoView({ block: "start" });
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, attempt };
}
export type Submit = ReturnType<typeof useSubmit>;

function markInvalid(form: HTMLFormElement, e: unknown): boolean {
  if (!(e instanceof ApiError)) return false;
  const fields = (e.details ?? [])
    .map((d) => ({ el: form.elements.namedItem(d.field.replace(/[.[].*$/, "")), message: d.message }))
    .filter((x): x is { el: HTMLInputElement; message: string } => x.el instanceof HTMLElement && "setCustomValidity" in x.el);
  for (const { el, message } of fields) {
    el.setCustomValidity(message);
    el.setAttribute("aria-invalid", "true");
    const clear = () => (el.setCustomValidity(""), el.removeAttribute("aria-invalid"));
    el.addEventListener("input", clear, { once: true });
    el.addEventListener("change", clear, { once: true });
  }
  fields[0]?.el.reportValidity();
  return fields.length > 0;
}

/** A readable message for an error, with the field details a validation message does not already name. */
export function errorText(e: unknown): string {
  // an ApiError's message is already in the reader's words, each field it names on its own line (api.ts)
  return e instanceof Error ? e.message : String(e);
}

/** A moment in the account's time zone (Settings), in the reader's language. */
export function fmtDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return d.toLocaleString(language(), {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: timeZone(),
  });
}

export function fmtBytes(n: number | null | undefined): string {
  if (n == null) return "—";
  const one = { maximumFractionDigits: 1, minimumFractionDigits: 1 };
  if (n < 1024) return t("app-bytes", { size: fmtNumber(n) });
  if (n < 1024 * 1024) return t("app-kilobytes", { size: fmtNumber(n / 1024, one) });
  return t("app-megabytes", { size: fmtNumber(n / 1024 / 1024, one) });
}

/** Confirm dialog (the browser's; Telegram clients show it natively too). */
export function confirmed(q: string): boolean {
  return window.confirm(q);
}
