import { isIP } from "node:net";

/** Bun's server, as far as the client address goes (absent when a test calls `app.handle`). */
export type Peer = { requestIP(r: Request): { address: string } | null } | null | undefined;

/**
 * An address as a proxy may write it in X-Forwarded-For: bare, with a port (`203.0.113.7:5123`)
 * or in brackets (`[2001:db8::1]:443`); null when it is not an IP address at all.
 */
function forwardedAddress(value: string): string | null {
  const v = value.trim();
  if (isIP(v)) return v;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(v)?.[1];
  if (bracketed && isIP(bracketed) === 6) return bracketed;
  const v4 = /^([\d.]+):\d+$/.exec(v)?.[1];
  return v4 && isIP(v4) === 4 ? v4 : null;
}

/**
 * The client's address. Behind `trustProxy` proxies (TRUST_PROXY: 0 = none) it is the
 * `trustProxy`-th IP address of X-Forwarded-For counted from the right: each trusted proxy appends
 * the address it saw, so the entries further left are whatever the client sent and may be forged.
 * Entries that are not IP addresses are skipped; with fewer addresses than proxies the request did
 * not come through them all, and the socket's address is used. Null when neither is known. Rate
 * limits, click records and view grants all take the address from here.
 */
export function clientAddress(request: Request, server: Peer, trustProxy: number): string | null {
  if (trustProxy > 0) {
    const header = request.headers.get("x-forwarded-for");
    const chain = header
      ? header
          .split(",")
          .map(forwardedAddress)
          .filter((a): a is string => a !== null)
      : [];
    const client = chain[chain.length - trustProxy];
    if (client) return client;
  }
  return server?.requestIP(request)?.address ?? null;
}
