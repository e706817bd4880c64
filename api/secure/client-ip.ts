import type { Server } from "bun";
import type { Deps } from "../../core/deps";

/** The visitor's IP: the first X-Forwarded-For address behind a trusted proxy, else the socket's. */
export function clientIp(deps: Pick<Deps, "config">, request: Request, server: Server<unknown> | null | undefined): string | null {
  if (deps.config.trustProxy) {
    const first = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (first) return first;
  }
  return server?.requestIP(request)?.address ?? null;
}
