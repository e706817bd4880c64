import { eq } from "drizzle-orm";
import type { AsyncDbOrTx } from "../../db/async";
import { Conflict, FieldError } from "../errors";
import { randomCode } from "../random";

/** Path segments the service uses itself (or may use), so no link can take them as its code. */
export const RESERVED_CODES = new Set([
  "api",
  "s",
  "app",
  "healthz",
  "livez",
  "readyz",
  "docs",
  "static",
  "assets",
  "telegram",
  "admin",
  "login",
  "logout",
  "auth",
  "dashboard",
  "favicon.ico",
  "robots.txt",
  "manifest.json",
  "sw.js",
  "bot",
  "webhook",
  "webhooks",
  "health",
  "status",
  "metrics",
  "openapi",
  "swagger",
  "links",
  "settings",
  "help",
]);

/** Every short code's shape: 3 to 64 letters, digits, "-" or "_" (generated codes are 8 of them). */
export const SHORT_CODE = /^[A-Za-z0-9_-]{3,64}$/;
/** Generated codes: 8 characters from a 57-letter alphabet (≈ 46 bits), drawn from crypto. */
const GENERATED_CODE_LENGTH = 8;

function isReservedCode(code: string): boolean {
  return RESERVED_CODES.has(code.toLowerCase());
}

/** Checks a custom code's shape and that it is neither reserved nor taken (409). */
export async function assertCustomCode(deps: { asyncDb: AsyncDbOrTx }, code: string): Promise<void> {
  if (!SHORT_CODE.test(code)) throw new FieldError("code", "must be 3–64 letters, digits, '-' or '_'");
  if (isReservedCode(code)) throw new FieldError("code", `"${code}" is reserved; choose another code`);
  if (await codeTaken(deps.asyncDb, code)) throw codeTakenError(code);
}

/** The 409 of a custom code another link has (also when two creates race for it: the unique index decides). */
export function codeTakenError(code: string): Conflict {
  return new Conflict(`The code "${code}" is already taken`, "code_taken");
}

async function codeTaken(db: AsyncDbOrTx, code: string): Promise<boolean> {
  const { links } = db.tables;
  return (await db.select({ id: links.id }).from(links).where(eq(links.code, code)).limit(1)).length > 0;
}

/** A fresh random code that no link uses yet. */
export async function newCode(deps: { asyncDb: AsyncDbOrTx }): Promise<string> {
  for (;;) {
    const code = randomCode(GENERATED_CODE_LENGTH);
    if (!(await codeTaken(deps.asyncDb, code))) return code;
  }
}
