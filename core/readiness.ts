/**
 * Whether this node should be given traffic, apart from what /readyz asks the database and the
 * journal: false from the moment a shutdown begins, so the load balancer takes the node out while
 * its last requests finish (main.ts drains on SIGTERM).
 */
export interface Readiness {
  readonly draining: boolean;
  /** The node is stopping: /readyz answers 503 from now on. */
  drain(): void;
}

export function createReadiness(): Readiness {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    drain() {
      draining = true;
    },
  };
}
