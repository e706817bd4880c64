import { createHmac } from "node:crypto";
import { isIP } from "node:net";
import type { Config } from "../../config";
import { unmappedIPv4 } from "../ip";
import { memoize } from "../memo";
import type { GeoLookup } from "../clicks/enrich";

/** What a click keeps about its visitor under PRIVACY_IP=truncate or none, worked out on the request. */
export interface PrivateVisitor {
  /** the address as stored: truncated, or null */
  ip: string | null;
  /** keyed hash of IP + User-Agent under the day's key: decides uniqueness without the address */
  visitor: string;
  /** country and city of the full address, `CC\ncity` ('' for unknown), so geo survives truncation */
  geo: string;
}

const DAY_MS = 86_400_000;

/** IPv4 to its /24 (`203.0.113.0`), IPv6 to its /48 (`2001:db8:1::`); null for anything that is not an address. */
export function truncateIp(ip: string | null): string | null {
  if (!ip) return null;
  const addr = unmappedIPv4(ip);
  const family = isIP(addr);
  if (family === 4) return addr.replace(/\.\d+$/, ".0");
  if (family !== 6) return null;
  const kept = [...expandIPv6(addr).slice(0, 3), "0", "0", "0", "0", "0"].join(":");
  return new URL(`http://[${kept}]/`).hostname.slice(1, -1); // the canonical, compressed spelling
}

/** The eight hextets of an IPv6 address (a trailing dotted IPv4 part counts as two). */
function expandIPv6(addr: string): string[] {
  let a = addr.toLowerCase().replace(/%.*$/, "");
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [b0, b1, b2, b3] = v4.slice(1).map(Number) as [number, number, number, number];
    a = a.slice(0, v4.index) + `${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = a.split("::") as [string, string | undefined];
  const h = head ? head.split(":") : [];
  if (tail === undefined) return h;
  const t = tail ? tail.split(":") : [];
  return [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
}

/**
 * The request-side privacy step of PRIVACY_IP: null under `full` (clicks keep the address and the
 * writer hashes it for uniqueness, as always). Under `truncate` and `none` it returns, per click,
 * what may be stored, before the click is queued anywhere: the truncated address or none, the
 * country and city of the full address, and an HMAC of IP + User-Agent whose key changes every UTC
 * day (derived from the service's secret, so every node derives the same key and no key is stored).
 */
export function createPrivacy(
  config: Pick<Config, "privacyIp" | "jwtSecret">,
  geoOf: GeoLookup,
): ((ip: string | null, userAgent: string | null, nowMs: number) => PrivateVisitor) | null {
  if (config.privacyIp === "full") return null;
  const keep = config.privacyIp === "truncate" ? truncateIp : () => null;
  let day = -1;
  let hashOf: (pair: string) => string = () => "";
  const geoText = memoize((ip: string) => {
    const g = geoOf(ip);
    return `${g.country ?? ""}\n${g.city ?? ""}`;
  }, 20000);
  return (ip, userAgent, nowMs) => {
    const today = Math.floor(nowMs / DAY_MS);
    if (today !== day) {
      day = today;
      const key = createHmac("sha256", config.jwtSecret).update(`visitor-key\n${today}`).digest();
      hashOf = memoize((pair) => createHmac("sha256", key).update(pair).digest("hex").slice(0, 32), 20000);
    }
    return { ip: keep(ip), visitor: hashOf(`${ip ?? ""}\n${userAgent ?? ""}`), geo: ip ? geoText(ip) : "\n" };
  };
}
