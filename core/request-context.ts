import { AsyncLocalStorage } from "node:async_hooks";

/** What every log line written while a request is handled carries: its id (also its X-Request-Id header). */
export interface RequestContext {
  requestId: string;
}

/**
 * The request being handled, carried through its awaits (node:async_hooks), so a log line written
 * deep in core names the request without every function passing it down. The logger reads it.
 */
export const requestContext = new AsyncLocalStorage<RequestContext>();
