import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";

/** Routes of the webhooks feature (filled in by its issue). */
export function webhooksApi(_deps: Deps) {
  return new Elysia({ name: "webhooks" });
}
