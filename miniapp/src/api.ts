/** Fetch wrapper for the service API: auth header (JWT or Telegram initData), refresh on 401, errors. */
import { language, t } from "./i18n";
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

async function toError(res: Response): Promise<ApiError> {
  let body: any = null;
  try {
    body = await res.json();
  } catch {}
  const msg = body?.message ?? (res.status === 404 ? t("app-not-found") : t("app-request-failed", { status: String(res.status) }));
  return new ApiError(
    res.status,
    body?.error ?? "http_error",
    problemInWords(language(), { code: body?.error, message: msg, details: body?.details }, t),
    body?.details,
  );
}

/** Codes of a 401 about the session's own token; others (a wrong passkey, bad widget data) are the request's. */
const SESSION_ERRORS = new Set(["invalid_token", "token_expired", "token_revoked", "unauthorized"]);

async function sessionRefused(res: Response): Promise<boolean> {
  const body = await res
    .clone()
    .json()
    .catch(() => null);
  return SESSION_ERRORS.has(body?.error);
}

/** Sends a request with the session's credentials (refreshing once on 401); a successful response or ApiError. */
async function send(method: string, path: string, body?: unknown, retried = false): Promise<Response> {
  const headers: Record<string, string> = { ...authHeaders() };
  if (body !== undefined && !(body instanceof FormData)) headers["content-type"] = "application/json";
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  }).catch(() => {
    throw unreachable();
  });
  if (res.status === 401 && !initData && !retried && localStorage.getItem(ACCESS) && (await sessionRefused(res))) {
    if (await tryRefresh()) return send(method, path, body, true);
    signOut();
  }
  if (!res.ok) throw await toError(res);
  return res;
}

/** Calls the API; JSON in, JSON out. Throws ApiError with the server's message. */
async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await send(method, path, body);
  if (res.status === 204) return undefined as T;
  const type = res.headers.get("content-type") ?? "";
  return (type.includes("json") ? res.json() : res.text()) as Promise<T>;
}

/** GET of a paged list: the items and the X-Total-Count header (the number over all pages). */
export async function getPage<T>(path: string): Promise<{ items: T[]; total: number }> {
  const res = await send("GET", path);
  const items = (await res.json()) as T[];
  return { items, total: Number(res.headers.get("x-total-count") ?? items.length) };
}

export const get = <T = any>(path: string) => api<T>("GET", path);
export const post = <T = any>(path: string, body?: unknown) => api<T>("POST", path, body ?? {});
export const patch = <T = any>(path: string, body?: unknown) => api<T>("PATCH", path, body);
export const del = <T = any>(path: string) => api<T>("DELETE", path);

/** Multipart upload with progress (fetch has no upload progress, XMLHttpRequest does). */
export function upload(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<any> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => {
      let body: any = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {}
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else
        reject(
          new ApiError(xhr.status, body?.error ?? "http_error", body?.message ?? t("app-upload-failed", { status: String(xhr.status) })),
        );
    };
    xhr.onerror = () => reject(unreachable());
    xhr.send(form);
  });
}
