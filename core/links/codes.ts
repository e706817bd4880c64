import { eq } from "drizzle-orm";
import type { Deps } from "../deps";
import type { DbOrTx } from "../../db/transaction";
import { links } from "../../db/schema";
import { Conflict, FieldError } from "../errors";
import { randomCode } from "../random";

/** Path segments the service uses itself (or may use), so no link can take them as its code. */
export const RESERVED_CODES = new Set([
  "api", "s", "app", "healthz", "docs", "static", "assets", "telegram", "admin", "login", "logout",
  "auth", "dashboard", "favicon.ico", "robots.txt", "manifest.json", "sw.js", "bot", "webhook", "webhooks",
  "health", "status", "metrics", "openapi", "swagger", "links", "settings", "help",
]);

export const CUSTOM_CODE = /^[A-Za-z0-9_-]{3,64}$/;
/** Generated codes: 8 characters from a 57-letter alphabet (≈ 46 bits), drawn from crypto. */
export const GENERATED_CODE_LENGTH = 8;

export function isReservedCode(code: string): boolean {
  return RESERVED_CODES.has(code.toLowerCase());
}

/** Checks a custom code's shape and that it is neither reserved nor taken (409). */
export function assertCustomCode(deps: { db: DbOrTx }, code: string): void {
  if (!CUSTOM_CODE.test(code)) throw new FieldError("code", "must be 3–64 letters, digits, '-' or '_'");
  if (isReservedCode(code)) throw new FieldError("code", `"${code}" is reserved; choose another code`);
  if (deps.db.select({ id: links.id }).from(links).where(eq(links.code, code)).get())
    throw new Conflict(`The code "${code}" is already taken`, "code_taken");
}

/** A fresh random code that no link uses yet. */
export function newCode(deps: Pick<Deps, "db">): string {
  for (;;) {
    const code = randomCode(GENERATED_CODE_LENGTH);
    if (!deps.db.select({ id: links.id }).from(links).where(eq(links.code, code)).get()) return code;
  }
}
