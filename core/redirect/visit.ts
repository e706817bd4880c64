import type { Deps } from "../deps";
import type { CachedLink } from "./link-cache";
import { createOrphanRecorder } from "./orphans";
import { hostCheck, hostnameOf } from "./host";
import { linkLoader, staleOnOutage } from "./load";
import type { VisitOutcome, VisitRequest } from "./outcome";
import { visitSteps, type Visit } from "./steps";

export type { PixelTag, VisitOutcome, VisitRequest } from "./outcome";

/**
 * The visitor flow of CONTRACT §4: the link found for the code (the link cache, else one read),
 * unknown, inactive or on another host → not found (recorded as an orphan visit, attributed to the
 * owner when the link is theirs but off); otherwise the decision table (steps.ts) decides. The click
 * is put into the click sink only when the visitor is sent on. Times come from deps.clock.
 */
export function createVisitHandler(deps: Deps) {
  const cache = deps.linkCache;
  const read = linkLoader(deps);
  const hostMatches = hostCheck(deps.config);
  const orphan = createOrphanRecorder(deps);
  const steps = visitSteps(deps);

  function decide(entry: CachedLink | null, req: VisitRequest, now: Date): VisitOutcome | Promise<VisitOutcome> {
    const here = entry !== null && hostMatches(entry, req.host);
    if (!here || !entry.link.isActive) {
      orphan(req.code, hostnameOf(req.host ?? "") || null, here ? entry.link : null);
      return { kind: "not_found" };
    }
    return run({ entry, req, now }, 0);
  }

  /** The first step with an outcome decides (a step that waits, the password check, passes on when it resolves to nothing). */
  function run(v: Visit, from: number): VisitOutcome | Promise<VisitOutcome> {
    for (let i = from; i < steps.length; i++) {
      const out = steps[i]!(v);
      if (out === undefined) continue;
      return out instanceof Promise ? out.then((o) => o ?? run(v, i + 1)) : out;
    }
    throw new Error("the visit's last step always answers");
  }

  /**
   * Synchronous for a cached link without a cap or password, so the common redirect never waits;
   * a link read from the database, a custom host to check, a capped click and a password wait.
   */
  return function visit(req: VisitRequest): VisitOutcome | Promise<VisitOutcome> {
    const now = deps.clock.now();
    const entry = cache.get(req.code, now);
    if (entry) return decide(entry, req, now);
    return cache.load(req.code, read).then(
      (loaded) => decide(loaded, req, deps.clock.now()),
      (e) => decide(staleOnOutage(cache, req.code, e), req, deps.clock.now()),
    );
  };
}
