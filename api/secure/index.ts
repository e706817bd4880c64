import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";

/** Routes of the secure feature (filled in by its issue). */
export function secureApi(_deps: Deps) {
  return new Elysia({ name: "secure" });
}
