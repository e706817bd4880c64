/** Every scope an API token may carry. `*` grants all. */
export const SCOPES = [
  "*",
  "read:links",
  "write:links",
  "read:stats",
  "read:channels",
  "write:channels",
  "read:pixels",
  "write:pixels",
  "read:secure",
  "write:secure",
  "read:tracking",
  "write:tracking",
  "read:conversions",
  "write:conversions",
  "read:webhooks",
  "write:webhooks",
] as const;
export type Scope = (typeof SCOPES)[number];

export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes("*") || granted.includes(needed);
}
