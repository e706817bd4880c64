/**
 * The security headers of every HTML page the service answers, by page kind: the one place a page
 * gets them (`html(status, body, pageHeaders(kind))`). Scripts run only from the service itself
 * (never inline), plus Telegram's scripts on the mini-app and the pixel networks' hosts on a pixel
 * page; styles may be inline (everything shown is escaped, and CSS cannot run code). Every page but
 * the mini-app refuses to be framed; the mini-app may be framed by Telegram Web.
 */
import type { PixelType } from "../../core/catalog/pixels";

export type PageKind =
  /** server-rendered pages: 404/410 pages, countdown, password form, the secure viewer, … */
  | "page"
  /** the page that fires a link's pixels before sending the visitor on */
  | "pixel"
  /** the mini-app / web dashboard */
  | "miniapp"
  /** the Swagger UI of the API */
  | "docs";

export interface PageOptions {
  /** pixel networks fired on a pixel page (their script, image and beacon hosts are allowed) */
  pixels?: readonly PixelType[];
  /** other origins the page may show images and media from (e.g. BASE_URL's for the secure viewer) */
  media?: readonly string[];
  /** other origins the page's scripts may fetch from */
  connect?: readonly string[];
}

/** What each pixel network's standard snippet loads (scripts), shows (images) and sends (beacons). */
const PIXEL_HOSTS: Record<PixelType, { script: string[]; img: string[]; connect: string[] }> = {
  facebook: {
    script: ["https://connect.facebook.net"],
    img: ["https://www.facebook.com"],
    connect: ["https://www.facebook.com", "https://connect.facebook.net"],
  },
  google: {
    script: ["https://www.googletagmanager.com"],
    img: ["https://www.googletagmanager.com", "https://*.google-analytics.com", "https://www.google.com"],
    connect: [
      "https://*.google-analytics.com",
      "https://*.analytics.google.com",
      "https://www.googletagmanager.com",
      "https://www.google.com",
    ],
  },
  tiktok: { script: ["https://analytics.tiktok.com"], img: ["https://analytics.tiktok.com"], connect: ["https://analytics.tiktok.com"] },
  yandex: { script: ["https://mc.yandex.ru"], img: ["https://mc.yandex.ru"], connect: ["https://mc.yandex.ru", "https://mc.yandex.com"] },
  vk: { script: ["https://vk.com"], img: ["https://vk.com"], connect: ["https://vk.com"] },
};

/** Telegram's Mini App script and Login Widget script (exact files; the widget signs in through a popup). */
const TELEGRAM_SCRIPTS = ["https://telegram.org/js/telegram-web-app.js", "https://telegram.org/js/telegram-widget.js"];
/** Telegram Web (web.telegram.org/k, /a) shows Mini Apps in a frame. */
const TELEGRAM_WEB = "https://web.telegram.org";

type Policy = Record<string, string[]>;

const serialize = (policy: Policy) =>
  Object.entries(policy)
    .map(([directive, sources]) => (sources.length ? `${directive} ${[...new Set(sources)].join(" ")}` : directive))
    .join("; ");

function policyOf(kind: PageKind, opts: PageOptions): Policy {
  const media = [...(opts.media ?? [])];
  const connect = [...(opts.connect ?? [])];
  const base: Policy = {
    "default-src": ["'none'"],
    "script-src": ["'self'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", ...media],
    "media-src": ["'self'", ...media],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...connect],
    "base-uri": ["'none'"],
    // a form's redirect is checked too: the password form's answer sends the visitor to the link's target
    "form-action": ["'self'", "https:", "http:"],
    "frame-ancestors": ["'none'"],
  };
  switch (kind) {
    case "page":
    case "docs":
      return base;
    case "pixel": {
      const hosts = (opts.pixels ?? []).map((p) => PIXEL_HOSTS[p]);
      return {
        ...base,
        // an opaque origin: the networks' scripts run, but cannot read the storage or cookies of the
        // service's origin, which by default is also the dashboard's (its tokens sit in localStorage)
        sandbox: ["allow-scripts", "allow-top-navigation", "allow-popups"],
        "script-src": [...base["script-src"]!, ...hosts.flatMap((h) => h.script)],
        "img-src": [...base["img-src"]!, ...hosts.flatMap((h) => h.img)],
        "connect-src": [...base["connect-src"]!, ...hosts.flatMap((h) => h.connect)],
      };
    }
    case "miniapp":
      return {
        ...base,
        "script-src": ["'self'", ...TELEGRAM_SCRIPTS],
        "img-src": [...base["img-src"]!, "blob:", "https://t.me", "https://telegram.org"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'self'", TELEGRAM_WEB],
      };
  }
}

/**
 * The headers of an HTML page of `kind`: Content-Security-Policy, X-Content-Type-Options: nosniff,
 * Referrer-Policy (no-referrer on public pages, whose addresses carry link codes; the same origin
 * only on the mini-app and docs), and X-Frame-Options: DENY on every page but the mini-app.
 */
export function pageHeaders(kind: PageKind, opts: PageOptions = {}): Record<string, string> {
  const headers: Record<string, string> = {
    "content-security-policy": serialize(policyOf(kind, opts)),
    "x-content-type-options": "nosniff",
    "referrer-policy": kind === "miniapp" || kind === "docs" ? "strict-origin-when-cross-origin" : "no-referrer",
  };
  if (kind !== "miniapp") headers["x-frame-options"] = "DENY";
  return headers;
}
