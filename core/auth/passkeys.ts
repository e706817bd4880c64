import { and, asc, eq, lt } from "drizzle-orm";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import type { Deps } from "../deps";
import { first, isUniqueViolation, type Tables } from "../../db/async";
import { AppError, Conflict, NotFound, Unauthorized } from "../errors";
import { findUserByIdentity, getUser } from "../accounts/users";
import { normalizeEmail } from "./email-codes";
import { issueSession, type Session } from "./sessions";

/** A WebAuthn challenge is valid this long and only once. */
const CHALLENGE_TTL_MS = 5 * 60_000;
const RP_NAME = "Linkbot";

type PasskeyDeps = Pick<Deps, "asyncDb" | "config" | "clock">;
type Purpose = "register" | "login";

/** rpID is BASE_URL's host name; the expected origin is BASE_URL's origin. */
function relyingParty(deps: Pick<Deps, "config">) {
  const url = new URL(deps.config.baseUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/** What both verifications expect of the browser's response. */
function expectations(deps: Pick<Deps, "config">, challenge: string) {
  const rp = relyingParty(deps);
  return { expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.rpID, requireUserVerification: true };
}

async function storeChallenge(deps: Pick<Deps, "asyncDb" | "clock">, challenge: string, purpose: Purpose, userId: number | null) {
  const now = deps.clock.now();
  const { webauthnChallenges } = deps.asyncDb.tables;
  await deps.asyncDb
    .insert(webauthnChallenges)
    .values({ challenge, purpose, userId, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS), createdAt: now });
}

/** Reads the challenge the browser signed out of clientDataJSON and deletes it (single use); null when unknown or expired. */
async function takeChallenge(deps: Pick<Deps, "asyncDb" | "clock">, clientDataJSON: unknown, purpose: Purpose) {
  let challenge: unknown;
  try {
    challenge = JSON.parse(Buffer.from(String(clientDataJSON), "base64url").toString("utf8")).challenge;
  } catch {
    return null;
  }
  if (typeof challenge !== "string") return null;
  const { webauthnChallenges } = deps.asyncDb.tables;
  // deleted as it is read: of two uses at once (two nodes), one gets it
  const row = first(
    await deps.asyncDb
      .delete(webauthnChallenges)
      .where(and(eq(webauthnChallenges.challenge, challenge), eq(webauthnChallenges.purpose, purpose)))
      .returning(),
  );
  if (!row || row.expiresAt.getTime() <= deps.clock.now().getTime()) return null;
  return row;
}

function view(p: Tables["passkeys"]["$inferSelect"]) {
  return {
    id: p.id,
    name: p.name,
    deviceType: p.deviceType,
    backedUp: p.backedUp,
    transports: p.transports ?? [],
    createdAt: p.createdAt.toISOString(),
    lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
  };
}

/** Registration options for a signed-in user (their existing passkeys are excluded). */
export async function passkeyRegistrationOptions(deps: PasskeyDeps, userId: number) {
  const user = await getUser(deps, userId);
  const { passkeys } = deps.asyncDb.tables;
  const existing = await deps.asyncDb.select().from(passkeys).where(eq(passkeys.userId, userId));
  const label = user.email ?? (user.username ? `@${user.username}` : `user ${user.id}`);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty(deps).rpID,
    userName: label,
    userDisplayName: user.firstName ?? label,
    userID: new TextEncoder().encode(`user:${user.id}`),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports ?? undefined })),
    // discoverable: sign-in never names the credentials an email has (see passkeyLoginOptions)
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await storeChallenge(deps, options.challenge, "register", userId);
  return options;
}

/** Verifies the browser's registration response against a challenge issued to this user and stores the passkey (201). */
export async function verifyPasskeyRegistration(deps: PasskeyDeps, userId: number, response: RegistrationResponseJSON, name?: string) {
  const challenge = await takeChallenge(deps, response.response?.clientDataJSON, "register");
  if (!challenge || challenge.userId !== userId)
    throw new AppError(400, "invalid_challenge", "Unknown or expired passkey challenge; ask for new registration options");
  let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>["registrationInfo"];
  try {
    const result = await verifyRegistrationResponse({ response, ...expectations(deps, challenge.challenge) });
    if (!result.verified) throw new Error("the attestation did not verify");
    info = result.registrationInfo;
  } catch (e) {
    throw new AppError(400, "passkey_invalid", `Passkey registration failed: ${(e as Error).message}`);
  }
  const { passkeys } = deps.asyncDb.tables;
  const exists = () => new Conflict("This passkey is already registered", "passkey_exists");
  if (first(await deps.asyncDb.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.credentialId, info.credential.id))))
    throw exists();
  const rows = await deps.asyncDb
    .insert(passkeys)
    .values({
      userId,
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey),
      counter: info.credential.counter,
      transports: info.credential.transports ?? response.response.transports ?? null,
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      name: name?.trim() || "Passkey",
      createdAt: deps.clock.now(),
    })
    .returning()
    .catch((e: unknown) => {
      throw isUniqueViolation(e) ? exists() : e; // the same credential registered twice at once
    });
  return view(rows[0]!);
}

export async function listPasskeys(deps: Pick<Deps, "asyncDb">, userId: number) {
  const { passkeys } = deps.asyncDb.tables;
  return (await deps.asyncDb.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id))).map(view);
}

/** Removes one of the user's passkeys; 404 when it is not theirs. */
export async function deletePasskey(deps: Pick<Deps, "asyncDb">, userId: number, id: number): Promise<void> {
  const { passkeys } = deps.asyncDb.tables;
  const gone = await deps.asyncDb
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  if (!gone.length) throw new NotFound("Passkey");
}

/**
 * Login options for discoverable credentials: a challenge and no `allowCredentials`, whether or not
 * `email` has an account, so the answer tells nobody who has one or which passkeys it holds; the
 * browser offers the passkeys it keeps for this site. With the email of an existing account the
 * challenge is bound to it server-side: only that account's passkeys are accepted with it.
 */
export async function passkeyLoginOptions(deps: PasskeyDeps, email?: string) {
  const user = email ? await findUserByIdentity(deps, "email", normalizeEmail(email)) : undefined;
  const options = await generateAuthenticationOptions({ rpID: relyingParty(deps).rpID, userVerification: "required" });
  await storeChallenge(deps, options.challenge, "login", user?.id ?? null);
  return options;
}

/** Verifies a WebAuthn assertion (challenge, signature, counter) and starts a session for the passkey's owner. */
export async function verifyPasskeyLogin(deps: PasskeyDeps, response: AuthenticationResponseJSON): Promise<Session> {
  const challenge = await takeChallenge(deps, response.response?.clientDataJSON, "login");
  if (!challenge) throw new Unauthorized("Unknown or expired passkey challenge; start the sign-in again", "invalid_challenge");
  const { passkeys } = deps.asyncDb.tables;
  const key = first(await deps.asyncDb.select().from(passkeys).where(eq(passkeys.credentialId, response.id)));
  if (!key || (challenge.userId !== null && challenge.userId !== key.userId))
    throw new Unauthorized("This passkey is not registered here", "unknown_passkey");
  let newCounter: number;
  try {
    const result = await verifyAuthenticationResponse({
      response,
      ...expectations(deps, challenge.challenge),
      credential: { id: key.credentialId, publicKey: new Uint8Array(key.publicKey), counter: key.counter },
    });
    if (!result.verified) throw new Error("the signature did not verify");
    newCounter = result.authenticationInfo.newCounter;
  } catch (e) {
    throw new Unauthorized(`Passkey sign-in failed: ${(e as Error).message}`, "passkey_invalid");
  }
  // the counter only moves forward, also against a parallel replay of the same assertion
  const moved = await deps.asyncDb
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: deps.clock.now() })
    .where(newCounter > 0 ? and(eq(passkeys.id, key.id), lt(passkeys.counter, newCounter)) : eq(passkeys.id, key.id))
    .returning({ id: passkeys.id });
  if (!moved.length) throw new Unauthorized("Passkey signature counter did not advance (cloned authenticator?)", "passkey_invalid");
  return issueSession(deps, await getUser(deps, key.userId));
}
