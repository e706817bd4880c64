export const MAX_URL_LENGTH = 2048;

/** The problem with `value` as an absolute http(s) URL, or null when it is fine. */
export function urlProblem(value: string): string | null {
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return "must be an absolute URL with http:// or https://";
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return "must be an http:// or https:// URL";
  if (!u.hostname) return "must name a host";
  return null;
}
