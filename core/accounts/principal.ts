import type { Deps } from "../deps";
import { Forbidden, Unauthorized } from "../errors";
import { verifyAccessToken } from "../tokens/jwt";
import { looksLikeApiToken, verifyApiToken } from "../tokens/api-tokens";
import { hasScope, type Scope } from "../tokens/scopes";
import { verifyInitData } from "./telegram-auth";
import { getUser, upsertTelegramUser, type UserRow } from "./users";

/**
 * Who is calling and with which scopes. JWT and initData sessions hold every scope.
 *
 * `user` is the account the request acts for: the person's own account as authenticate() answers
 * (the token's workspace for an API token); the API then moves it to the acting workspace
 * (core/workspaces/acting.ts). `actorId` is always the person: the signed-in one, or a token's maker.
 */
export interface Principal {
  user: UserRow;
  actorId: number;
  via: "jwt" | "initData" | "apiToken";
  scopes: string[];
  tokenId?: number;
}

/**
 * Authenticates a request from its `Authorization: Bearer …` value (JWT or API token) or its
 * `x-msgr-init-data` header. Throws 401 when neither is present or valid.
 */
export async function authenticate(
  deps: Pick<Deps, "asyncDb" | "config" | "clock" | "revokedSessions">,
  creds: { authorization?: string | null; initData?: string | null },
): Promise<Principal> {
  const auth = creds.authorization?.trim();
  if (auth) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    if (!m) throw new Unauthorized("Authorization header must be 'Bearer <token>'", "invalid_token");
    const token = m[1]!;
    if (looksLikeApiToken(token)) {
      const t = await verifyApiToken(deps, token);
      return { user: await activeUser(deps, t.userId), actorId: t.madeBy, via: "apiToken", scopes: t.scopes, tokenId: t.tokenId };
    }
    const { userId, sessionId } = await verifyAccessToken(deps, token);
    if (sessionId && (await deps.revokedSessions.has(sessionId)))
      throw new Unauthorized("This sign-in was ended; sign in again", "session_revoked");
    const user = await activeUser(deps, userId);
    return { user, actorId: user.id, via: "jwt", scopes: ["*"] };
  }
  if (creds.initData) {
    const profile = verifyInitData(deps, creds.initData);
    const user = await upsertTelegramUser(deps, profile);
    return { user, actorId: user.id, via: "initData", scopes: ["*"] };
  }
  throw new Unauthorized("Authentication required: send Authorization: Bearer <token> or x-msgr-init-data", "unauthorized");
}

async function activeUser(deps: Pick<Deps, "asyncDb">, id: number): Promise<UserRow> {
  try {
    return await getUser(deps, id);
  } catch {
    throw new Unauthorized("The account behind this token no longer exists", "invalid_token");
  }
}

/** 403 when the principal's token lacks `scope`. */
export function requireScope(p: Principal, scope: Scope): void {
  if (!hasScope(p.scopes, scope)) throw new Forbidden(`This token lacks the "${scope}" scope`, "insufficient_scope");
}
