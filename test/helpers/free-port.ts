/** A loopback TCP port that was free a moment ago (for servers that cannot be told to take port 0). */
export async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}
