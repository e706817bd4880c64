/** Fetch wrapper for the service API: auth header (JWT or Telegram initData), refresh on 401, errors. */
import { language, t } from "./i18n";
import { treaty } from "@elysiajs/eden";
import type { createApi } from "../../api/app";
import { problemInWords } from "../../core/i18n/problem";

export class ApiError extends Error {
  constructor(
    public status: number,
    public code: string,
    message: string,
    public details?: { field: string; message: string }[],
  ) {
    super(message);
  }
}

/** fetch failed before any answer: offline, or the service is down. */
const unreachable = () => new ApiError(0, "network", t("app-unreachable"));

const ACCESS = "dash.access";
const REFRESH = "dash.refresh";
/** The workspace the app acts in (its id), sent as X-Workspace; unset: the personal one. */
const WORKSPACE = "dash.workspace";

let initData: string | null = null;
const listeners = new Set<() => void>();

/** Inside Telegram every request carries the signed initData instead of a token. */
export function useInitData(raw: string) {
  initData = raw;
}

export function isSignedIn(): boolean {
  return Boolean(initData || localStorage.getItem(ACCESS));
}

export function inTelegram(): boolean {
  return Boolean(initData);
}

/** Stores the tokens of a sign-in response ({access_token|accessToken, refresh_token?}). */
export function saveSession(res: { access_token?: string; accessToken?: string; refresh_token?: string }) {
  const access = res.access_token ?? res.accessToken;
  if (access) localStorage.setItem(ACCESS, access);
  if (res.refresh_token) localStorage.setItem(REFRESH, res.refresh_token);
  listeners.forEach((l) => l());
}

/** Ends the session; the refresh token is revoked on the server (best effort). */
export function signOut() {
  const rt = localStorage.getItem(REFRESH);
  if (rt)
    void fetch("/api/auth/logout", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ refresh_token: rt }),
    }).catch(() => {});
  localStorage.removeItem(ACCESS);
  localStorage.removeItem(REFRESH);
  localStorage.removeItem(WORKSPACE);
  listeners.forEach((l) => l());
}

/** Called when the session starts or ends (the app re-renders). */
export function onSessionChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The chosen workspace's id, or null for the personal one. */
export function currentWorkspace(): number | null {
  const id = Number(localStorage.getItem(WORKSPACE));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Acts in `id` from now on (null: the personal workspace); the app redraws. */
export function chooseWorkspace(id: number | null) {
  if (id === null) localStorage.removeItem(WORKSPACE);
  else localStorage.setItem(WORKSPACE, String(id));
  listeners.forEach((l) => l());
}

function authHeaders(): Record<string, string> {
  const ws = currentWorkspace();
  const workspace: Record<string, string> = ws === null ? {} : { "x-workspace": String(ws) };
  if (initData) return { "x-msgr-init-data": initData, ...workspace };
  const t = localStorage.getItem(ACCESS);
  return t ? { authorization: `Bearer ${t}`, ...workspace } : workspace;
}

async function tryRefresh(): Promise<boolean> {
  const rt = localStorage.getItem(REFRESH);
  if (!rt) return false;
  const res = await fetch("/api/auth/refresh", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ refresh_token: rt }),
  });
  if (!res.ok) return false;
  saveSession(await res.json());
  return true;
}

/** An error answer's body in the contract's error model (any field may be missing on a foreign answer). */
interface Problem {
  error?: string;
  message?: string;
  details?: { field: string; message: string }[];
}

const problemOf = (body: unknown): Problem => (typeof body === "object" && body !== null ? (body as Problem) : {});

/** The ApiError of a non-2xx answer: the server's message in the user's words. */
function toError(status: number, body: unknown): ApiError {
  const p = problemOf(body);
  const msg = p.message ?? (status === 404 ? t("app-not-found") : t("app-request-failed", { status: String(status) }));
  return new ApiError(
    status,
    p.error ?? "http_error",
    problemInWords(language(), { code: p.error, message: msg, details: p.details }, t),
    p.details,
  );
}

/** Codes of a 401 about the session's own token; others (a wrong passkey, bad widget data) are the request's. */
const SESSION_ERRORS = new Set(["invalid_token", "token_expired", "token_revoked", "unauthorized"]);

async function sessionRefused(res: Response): Promise<boolean> {
  const body = await res
    .clone()
    .json()
    .catch(() => null);
  return SESSION_ERRORS.has(problemOf(body).error ?? "");
}

/**
 * The client's fetch: the session's credentials and the workspace on every request, one refresh and
 * retry on a 401 about the session's token (signing out when the refresh fails).
 */
async function sessionFetch(url: string | URL | Request, init: RequestInit = {}, retried = false): Promise<Response> {
  const headers = { ...(init.headers as Record<string, string> | undefined), ...authHeaders() };
  const res = await fetch(url, { ...init, headers }).catch(() => {
    throw unreachable();
  });
  if (res.status === 401 && !initData && !retried && localStorage.getItem(ACCESS) && (await sessionRefused(res))) {
    if (await tryRefresh()) return sessionFetch(url, init, true);
    signOut();
  }
  return res;
}

/**
 * A successful answer's body as the server sent it: JSON parsed without reviving dates, anything else
 * as text. Error answers are left to Eden (null), which then reports them as the call's `error`.
 */
async function readBody(res: Response): Promise<unknown> {
  if (!res.ok) return null;
  if (res.status === 204) return "";
  const type = res.headers.get("content-type") ?? "";
  return type.includes("json") ? res.json() : res.text();
}

type App = ReturnType<typeof createApi>;

/**
 * The API typed by its routes' response schemas (Eden treaty over the server's app type, imported as a
 * type only: no server code reaches the bundle). `call` or `page` turns an answer into its data.
 */
export const client = treaty<App>(location.origin, {
  fetcher: Object.assign(sessionFetch, { preconnect: fetch.preconnect }),
  onResponse: readBody,
  parseDate: false,
});

/** What a treaty call answers: the data of a 2xx, or the error with its status and body. */
interface Answer {
  data: unknown;
  error: { status: unknown; value: unknown } | null;
  response?: Response;
}

/** The data of a successful answer (its route's 2xx schema). */
export type Data<A> = Exclude<Extract<A, { error: null }> extends { data: infer D } ? D : never, null>;

/** Awaits a client call: its data, or an ApiError with the server's message (status 0: unreachable). */
export async function call<A extends Answer>(request: Promise<A>): Promise<Data<A>> {
  const { data, error } = await request;
  if (!error) return data as Data<A>;
  if (error.value instanceof ApiError) throw error.value;
  throw toError(Number(error.status), error.value);
}

/** A paged list: its items and the X-Total-Count header (the number over all pages). */
export async function page<A extends Answer>(request: Promise<A>): Promise<{ items: Data<A>; total: number }> {
  const { response } = await request;
  const items = await call(request);
  const total = Number(response?.headers.get("x-total-count") ?? (Array.isArray(items) ? items.length : 0));
  return { items, total };
}

/**
 * Multipart upload with progress, outside the typed client: fetch (and so Eden) has no upload progress,
 * XMLHttpRequest does. Sends the same credentials; a non-2xx answer is an ApiError.
 */
export function upload(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {}
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      const p = problemOf(body);
      reject(new ApiError(xhr.status, p.error ?? "http_error", p.message ?? t("app-upload-failed", { status: String(xhr.status) })));
    };
    xhr.onerror = () => reject(unreachable());
    xhr.send(form);
  });
}
