import type { Deps } from "../deps";
import { isIP } from "node:net";
import { isServiceUrl } from "./own-hosts";

export const MAX_URL_LENGTH = 2048;

/** The problem with `value` as an absolute http(s) URL, or null when it is fine (syntax only: a first check). */
function urlSyntaxProblem(value: string): string | null {
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return "must be an absolute URL with http:// or https://";
  }
  // new URL() quietly encodes them, which would store a target the sender did not mean
  if (/\s/.test(value)) return "must not contain spaces (encode them as %20)";
  if (u.protocol !== "http:" && u.protocol !== "https:") return "must be an http:// or https:// URL";
  if (!u.hostname) return "must name a host";
  return null;
}

function visitorTargetProblem(value: string, u: URL): string | null {
  // browsers read "\\" as "/" in http URLs: https://evil.example\@bank.example/ goes to evil.example
  if (value.includes("\\")) return "must not contain a backslash (use / in paths, or encode it as %5C)";
  // https://bank.example@evil.example/ goes to evil.example while it reads as bank.example
  if (u.username || u.password)
    return "must not contain a user name or password before the host (…@): visitors would land on the host after the @";
  if (isLoopback(u.hostname))
    return "must not point to localhost or a loopback address: it leads back to the visitor's own machine, or into this service";
  // a macro is filled from the visitor's own query (sub1…sub5): in the host it would let any visitor pick where the link goes
  if (/\{[a-z0-9_]+\}/i.test(value.slice(0, hostPartEnd(value))))
    return "may carry a macro ({sub1}, {click_id}…) only in its path, query or fragment, not in its host: a visitor could choose where the link goes";
  return null;
}

/** Where a URL as written ends its scheme and host part (`https://host:port`): 0 when it has none. */
export const hostPartEnd = (url: string): number => /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0].length ?? 0;

/** localhost, *.localhost, 127.0.0.0/8, ::1, the unspecified address, and IPv4 loopback mapped into IPv6. */
export function isLoopback(hostname: string): boolean {
  const h = hostname
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(/^\[|\]$/g, "");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (isIP(h) === 4) return h.startsWith("127.") || h === "0.0.0.0";
  if (isIP(h) !== 6) return false;
  if (h === "::1" || h === "::") return true;
  // ::ffff:127.0.0.1, which the URL parser writes as ::ffff:7f00:1
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):[0-9a-f]{1,4})$/.exec(h);
  if (!mapped) return false;
  return mapped[1]
    ? mapped[1].startsWith("127.") || mapped[1] === "0.0.0.0"
    : parseInt(mapped[2]!, 16) >> 8 === 127 || parseInt(mapped[2]!, 16) === 0;
}

/**
 * The problem with `value` as a place to send visitors or requests (a link's target, its expired,
 * per-platform or webhook URL, a rule's or variant's URL, any target field added later), or null
 * when it is fine: an absolute http(s) URL that does not lead back to this service's short links
 * (SHORT_URL, BASE_URL, verified custom domains), since such a link would redirect into itself or
 * another link. A place to send visitors (`use` "visitors") must also read as where it leads: no
 * user name before the host and no backslash, which browsers resolve to another host than the one a
 * reader sees, and no loopback host (a redirect loop through the visitor's own machine or this
 * service). A webhook URL has rules of its own (core/webhooks: no credentials, no private addresses
 * unless WEBHOOK_ALLOW_PRIVATE).
 */
export async function urlProblem(
  deps: Pick<Deps, "asyncDb" | "config">,
  value: string,
  use: "visitors" | "webhook" = "visitors",
): Promise<string | null> {
  const syntax = urlSyntaxProblem(value);
  if (syntax) return syntax;
  if (use === "visitors") {
    const problem = visitorTargetProblem(value, new URL(value));
    if (problem) return problem;
  }
  if (await isServiceUrl(deps, new URL(value)))
    return "must not point to this service's own short links (a link there would redirect to itself)";
  return null;
}
