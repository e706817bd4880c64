import { SignJWT, jwtVerify, errors } from "jose";
import type { Deps } from "../deps";
import { Unauthorized } from "../errors";

export const ACCESS_TOKEN_TTL_SECONDS = 7 * 24 * 3600;
const ALG = "HS256";
const key = (secret: string) => new TextEncoder().encode(secret);

/**
 * Signs a 7-day access token for `userId`. `sessionId` names the sign-in (refresh-token family) it
 * belongs to, so ending that sign-in ends the token too.
 */
export async function signAccessToken(deps: Pick<Deps, "config" | "clock">, userId: number, sessionId?: string): Promise<string> {
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  return new SignJWT(sessionId ? { typ: "access", sid: sessionId } : { typ: "access" })
    .setProtectedHeader({ alg: ALG })
    .setSubject(String(userId))
    .setIssuedAt(now)
    .setExpirationTime(now + ACCESS_TOKEN_TTL_SECONDS)
    .sign(key(deps.config.jwtSecret));
}

/** Verifies an access token (algorithm pinned) and returns the user id and the sign-in it belongs to. */
export async function verifyAccessToken(
  deps: Pick<Deps, "config" | "clock">,
  token: string,
): Promise<{ userId: number; sessionId: string | null }> {
  try {
    const { payload } = await jwtVerify(token, key(deps.config.jwtSecret), {
      algorithms: [ALG],
      currentDate: deps.clock.now(),
    });
    if (payload.typ !== "access" || !payload.sub || !/^\d+$/.test(payload.sub))
      throw new Unauthorized("Invalid access token", "invalid_token");
    if (payload.sid !== undefined && typeof payload.sid !== "string") throw new Unauthorized("Invalid access token", "invalid_token");
    return { userId: Number(payload.sub), sessionId: payload.sid ?? null };
  } catch (e) {
    if (e instanceof Unauthorized) throw e;
    if (e instanceof errors.JWTExpired) throw new Unauthorized("Access token expired", "token_expired");
    throw new Unauthorized("Invalid access token", "invalid_token");
  }
}
