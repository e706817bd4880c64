import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";

/** Routes of the auth feature (filled in by its issue). */
export function authApi(_deps: Deps) {
  return new Elysia({ name: "auth" });
}
