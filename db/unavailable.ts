/**
 * Whether an error means the database cannot be reached right now (as opposed to a query it
 * refused): the server down, restarting or out of connection slots, the network gone. Such a
 * failure passes by itself, so work that met it is kept and retried, and a request that met it is
 * told to come back (503 `database_unavailable`) rather than that something broke.
 */

/**
 * Bun's PostgreSQL driver, when no connection could be made or the one in use went: refused (the
 * server is down), failed (DNS, TLS, the handshake), closed by the server or the network, and its
 * own connect, idle and lifetime timeouts.
 */
const DRIVER = /^ERR_POSTGRES_(CONNECTION_(REFUSED|FAILED|CLOSED|TIMEOUT)|IDLE_TIMEOUT|LIFETIME_TIMEOUT)$/;
/** The operating system's socket errors, should one reach us unwrapped. */
const SOCKET = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)$/;
/**
 * PostgreSQL's own SQLSTATEs for the same: class 08 (connection exceptions), 57P01-57P03 (shut down
 * by an administrator or a crash, or still starting up), 53300 (too many connections).
 */
const SQLSTATE = /^(08\d{3}|57P0[1-3]|53300)$/;

/** True when `e`, or an error it wraps (drizzle wraps the driver's), says the database is out of reach. */
export function isDatabaseUnavailable(e: unknown): boolean {
  for (
    let err = e as { cause?: unknown; errno?: unknown; code?: unknown } | undefined, depth = 0;
    err && typeof err === "object" && depth < 4;
    err = err.cause as typeof err, depth++
  ) {
    if (typeof err.code === "string" && (DRIVER.test(err.code) || SOCKET.test(err.code))) return true;
    if (typeof err.errno === "string" && SQLSTATE.test(err.errno)) return true;
  }
  return false;
}
