import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";

/** Routes of the analytics feature (filled in by its issue). */
export function analyticsApi(_deps: Deps) {
  return new Elysia({ name: "analytics" });
}
