import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";

/** Routes of the visitor feature (filled in by its issue). */
export function visitorApi(_deps: Deps) {
  return new Elysia({ name: "visitor" });
}
