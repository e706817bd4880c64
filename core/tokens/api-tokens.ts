import { and, count, desc, eq, gt, isNull, lt, or } from "drizzle-orm";
import type { Deps } from "../deps";
import { first, type Tables } from "../../db/async";
import { FieldError, Forbidden, NotFound, Unauthorized } from "../errors";
import { randomSecret, sha256 } from "../random";
import { SCOPES, type Scope } from "./scopes";
import { requireRole, roleAtLeast, roleForScopes, scopesWithin, type Role } from "./roles";

/** The fixed service prefix of every API token: `lbt_sk_<random>`. */
const TOKEN_PREFIX = "lbt";
/** API tokens an account may hold at once (revoked and expired ones do not count). */
export const MAX_API_TOKENS = 50;

function view(row: Tables["apiTokens"]["$inferSelect"]) {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    hint: row.hint,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    madeBy: row.madeBy ?? row.userId,
  };
}

/**
 * Creates a token; the secret is in the result only this once. Stored as a SHA-256 hash. An account
 * holds at most MAX_API_TOKENS live tokens (403 token_limit): they share one rate-limit budget
 * anyway, and a cap keeps a stolen session from scattering tokens.
 */
export async function createApiToken(
  deps: Pick<Deps, "asyncDb" | "clock">,
  userId: number,
  input: { name: string; scopes?: string[]; expiresInDays?: number | null },
  maker: { id: number; role: Role } = { id: userId, role: "owner" },
) {
  const name = input.name.trim();
  if (!name || name.length > 100) throw new FieldError("name", "must be 1 to 100 characters");
  const scopes = input.scopes?.length ? [...new Set(input.scopes)] : ["*"];
  const unknown = scopes.filter((s) => !SCOPES.includes(s as Scope));
  if (unknown.length) throw new FieldError("scopes", `unknown scope(s): ${unknown.join(", ")}; allowed: ${SCOPES.join(", ")}`);
  // a token never does more than its maker may: its scopes stay within the maker's role when it is made
  if (!roleAtLeast(maker.role, roleForScopes(scopes)))
    throw new Forbidden(
      `As ${maker.role} in this workspace you can make tokens with these scopes only: ${scopesWithin(maker.role).join(", ")}`,
      "forbidden_role",
    );
  const days = input.expiresInDays;
  if (days != null && (!Number.isInteger(days) || days < 1 || days > 3650))
    throw new FieldError("expiresInDays", "must be a whole number of days from 1 to 3650");
  const secret = `${TOKEN_PREFIX}_sk_${randomSecret(24)}`;
  const now = deps.clock.now();
  const { apiTokens } = deps.asyncDb.tables;
  const live = Number(
    first(
      await deps.asyncDb
        .select({ n: count() })
        .from(apiTokens)
        .where(
          and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now))),
        ),
    )!.n,
  );
  if (live >= MAX_API_TOKENS)
    throw new Forbidden(`An account holds at most ${MAX_API_TOKENS} API tokens; revoke one you no longer use first`, "token_limit");
  const [row] = await deps.asyncDb
    .insert(apiTokens)
    .values({
      userId,
      madeBy: maker.id,
      name,
      scopes,
      tokenHash: sha256(secret),
      hint: secret.slice(0, 12),
      createdAt: now,
      expiresAt: days ? new Date(now.getTime() + days * 86_400_000) : null,
    })
    .returning();
  return { ...view(row!), token: secret };
}

export async function listApiTokens(deps: Pick<Deps, "asyncDb">, userId: number) {
  const { apiTokens } = deps.asyncDb.tables;
  return (
    await deps.asyncDb
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .orderBy(desc(apiTokens.id))
  ).map(view);
}

/**
 * Revokes a token of the workspace. A member revokes the tokens they made; someone else's needs an
 * admin (403 `forbidden_role`).
 */
export async function revokeApiToken(
  deps: Pick<Deps, "asyncDb" | "clock">,
  userId: number,
  id: number,
  actor: { id: number; role: Role } = { id: userId, role: "owner" },
): Promise<void> {
  const { apiTokens } = deps.asyncDb.tables;
  const row = first(
    await deps.asyncDb
      .select({ madeBy: apiTokens.madeBy })
      .from(apiTokens)
      .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt))),
  );
  if (!row) throw new NotFound("API token");
  if ((row.madeBy ?? userId) !== actor.id) requireRole(actor.role, "members");
  const revoked = await deps.asyncDb
    .update(apiTokens)
    .set({ revokedAt: deps.clock.now() })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  if (!revoked.length) throw new NotFound("API token");
}

export function looksLikeApiToken(bearer: string): boolean {
  return bearer.startsWith(`${TOKEN_PREFIX}_sk_`);
}

/**
 * Resolves a presented API token to its workspace (userId), maker and scopes; 401 when unknown,
 * revoked or expired. Whether the maker may still use it in that workspace is checked by the caller.
 */
export async function verifyApiToken(
  deps: Pick<Deps, "asyncDb" | "clock">,
  secret: string,
): Promise<{ userId: number; scopes: string[]; tokenId: number; madeBy: number }> {
  const { apiTokens } = deps.asyncDb.tables;
  const row = first(
    await deps.asyncDb
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.tokenHash, sha256(secret))),
  );
  if (!row) throw new Unauthorized("Invalid API token", "invalid_token");
  if (row.revokedAt) throw new Unauthorized("API token has been revoked", "token_revoked");
  const now = deps.clock.now();
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) throw new Unauthorized("API token has expired", "token_expired");
  // last-used time at minute resolution, so a busy script does not write on every request
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000)
    // conditional, so that of the nodes serving the same script only one writes per minute
    await deps.asyncDb
      .update(apiTokens)
      .set({ lastUsedAt: now })
      .where(and(eq(apiTokens.id, row.id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, new Date(now.getTime() - 60_000)))));
  return { userId: row.userId, scopes: row.scopes, tokenId: row.id, madeBy: row.madeBy ?? row.userId };
}
