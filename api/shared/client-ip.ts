/** Bun's server, as far as the client address goes (absent when a test calls `app.handle`). */
export type Peer = { requestIP(r: Request): { address: string } | null } | null | undefined;

/**
 * The client's address: the first X-Forwarded-For entry behind a trusted proxy (TRUST_PROXY),
 * else the socket's; null when neither is known. Rate limits, click records and view grants all
 * take the address from here.
 */
export function clientAddress(request: Request, server: Peer, trustProxy: boolean): string | null {
  if (trustProxy) {
    const first = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (first) return first;
  }
  return server?.requestIP(request)?.address ?? null;
}
