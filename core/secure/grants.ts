/**
 * View grants: short-lived signed tickets that let the viewer of one link stream and download
 * without counting more views. Stateless (HMAC over link id, expiry and a tag of the viewer's IP).
 */
import { createHmac } from "node:crypto";
import type { Deps } from "../deps";
import { safeEqual } from "../random";

/** How long a grant stays valid: long enough to watch a film with pauses. */
const GRANT_TTL_MS = 3 * 3600_000;

function mac(deps: Pick<Deps, "config">, text: string): string {
  return createHmac("sha256", `secure-view-grant:${deps.config.jwtSecret}`).update(text).digest("base64url");
}

function ipTag(deps: Pick<Deps, "config">, ip: string | null): string {
  return ip ? mac(deps, `ip:${ip}`).slice(0, 12) : "-";
}

/** A grant for `linkId`, bound to `ip` when known. */
export function signGrant(deps: Pick<Deps, "config" | "clock">, linkId: number, ip: string | null): string {
  const exp = Math.floor((deps.clock.now().getTime() + GRANT_TTL_MS) / 1000);
  const payload = `${linkId}.${exp}.${ipTag(deps, ip)}`;
  return `${payload}.${mac(deps, payload).slice(0, 32)}`;
}

/** True when `grant` was signed by us for `linkId`, has not expired and matches the viewer's IP. */
export function verifyGrant(
  deps: Pick<Deps, "config" | "clock">,
  grant: string | null | undefined,
  linkId: number,
  ip: string | null,
): boolean {
  if (!grant) return false;
  const parts = grant.split(".");
  if (parts.length !== 4) return false;
  const [id, exp, tag, sig] = parts as [string, string, string, string];
  if (!safeEqual(sig, mac(deps, `${id}.${exp}.${tag}`).slice(0, 32))) return false;
  if (Number(id) !== linkId) return false;
  if (Number(exp) * 1000 <= deps.clock.now().getTime()) return false;
  return tag === "-" || safeEqual(tag, ipTag(deps, ip));
}
