import type { Deps } from "../deps";
import { isServiceUrl } from "./own-hosts";

export const MAX_URL_LENGTH = 2048;

/** The problem with `value` as an absolute http(s) URL, or null when it is fine (syntax only: a first check). */
export function urlSyntaxProblem(value: string): string | null {
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

/**
 * The problem with `value` as a place to send visitors or requests (a link's target, its expired,
 * per-platform or webhook URL, a rule's or variant's URL, any target field added later), or null
 * when it is fine: an absolute http(s) URL that does not lead back to this service's short links
 * (SHORT_URL, BASE_URL, verified custom domains), since such a link would redirect into itself or
 * another link.
 */
export async function urlProblem(deps: Pick<Deps, "asyncDb" | "config">, value: string): Promise<string | null> {
  const syntax = urlSyntaxProblem(value);
  if (syntax) return syntax;
  if (await isServiceUrl(deps, new URL(value))) return "must not point to this service's own short links (a link there would redirect to itself)";
  return null;
}
