import { isIP } from "node:net";

/** Bun's server, as far as the client address goes (absent when a test calls `app.handle`). */
export type Peer = { requestIP(r: Request): { address: string } | null } | null | undefined;

/**
 * An address as a proxy may write it in X-Forwarded-For: bare, with a port (`203.0.113.7:5123`)
 * or in brackets (`[2001:db8::1]:443`); null when it is not an IP address at all.
 */
export function forwardedAddress(value: string): string | null {
  const v = value.trim();
  if (isIP(v)) return v;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(v)?.[1];
  if (bracketed && isIP(bracketed) === 6) return bracketed;
  const v4 = /^([\d.]+):\d+$/.exec(v)?.[1];
  return v4 && isIP(v4) === 4 ? v4 : null;
}

/**
 * The client's address: the first X-Forwarded-For entry behind a trusted proxy (TRUST_PROXY),
 * when it is an IP address, else the socket's; null when neither is known. Rate limits, click
 * records and view grants all take the address from here.
 */
export function clientAddress(request: Request, server: Peer, trustProxy: boolean): string | null {
  if (trustProxy) {
    const header = request.headers.get("x-forwarded-for");
    const first = header ? forwardedAddress(header.split(",")[0]!) : null;
    if (first) return first;
  }
  return server?.requestIP(request)?.address ?? null;
}
