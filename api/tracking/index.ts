import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";

/** Routes of the tracking feature (filled in by its issue). */
export function trackingApi(_deps: Deps) {
  return new Elysia({ name: "tracking" });
}
