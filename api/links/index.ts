import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";

/** Routes of the links feature (filled in by its issue). */
export function linksApi(_deps: Deps) {
  return new Elysia({ name: "links" });
}
