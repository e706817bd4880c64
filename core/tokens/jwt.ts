import { SignJWT, jwtVerify, errors } from "jose";
import type { Deps } from "../deps";
import { Unauthorized } from "../errors";

export const ACCESS_TOKEN_TTL_SECONDS = 7 * 24 * 3600;
const ALG = "HS256";
const key = (secret: string) => new TextEncoder().encode(secret);

/** Signs a 7-day access token for `userId`. */
export async function signAccessToken(deps: Pick<Deps, "config" | "clock">, userId: number): Promise<string> {
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  return new SignJWT({ typ: "access" })
    .setProtectedHeader({ alg: ALG })
    .setSubject(String(userId))
    .setIssuedAt(now)
    .setExpirationTime(now + ACCESS_TOKEN_TTL_SECONDS)
    .sign(key(deps.config.jwtSecret));
}

/** Verifies an access token (algorithm pinned) and returns the user id. */
export async function verifyAccessToken(deps: Pick<Deps, "config" | "clock">, token: string): Promise<number> {
  try {
    const { payload } = await jwtVerify(token, key(deps.config.jwtSecret), {
      algorithms: [ALG],
      currentDate: deps.clock.now(),
    });
    if (payload.typ !== "access" || !payload.sub || !/^\d+$/.test(payload.sub)) throw new Unauthorized("Invalid access token", "invalid_token");
    return Number(payload.sub);
  } catch (e) {
    if (e instanceof Unauthorized) throw e;
    if (e instanceof errors.JWTExpired) throw new Unauthorized("Access token expired", "token_expired");
    throw new Unauthorized("Invalid access token", "invalid_token");
  }
}
