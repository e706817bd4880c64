/** Passkeys through @simplewebauthn/browser (loaded on demand, bundled with the app). */
import { del, get, post } from "./api";

const lib = () => import("@simplewebauthn/browser");

/** The options object may come bare or wrapped ({options}). */
function unwrap(o: any) {
  return o?.options ?? o;
}

export async function passkeySupported(): Promise<boolean> {
  return (await lib()).browserSupportsWebAuthn();
}

/** Registers a passkey for the signed-in user. */
export async function registerPasskey(name?: string) {
  const { startRegistration } = await lib();
  const options = unwrap(await post("/api/auth/passkey/register/options", name ? { name } : {}));
  const response = await startRegistration({ optionsJSON: options });
  return post("/api/auth/passkey/register/verify", name ? { ...response, name } : response);
}

/** Signs in with a passkey of the account with this email; returns the session response. */
export async function loginWithPasskey(email: string) {
  const { startAuthentication } = await lib();
  const options = unwrap(await post("/api/auth/passkey/login/options", { email }));
  const response = await startAuthentication({ optionsJSON: options });
  return post("/api/auth/passkey/login/verify", response);
}

export const listPasskeys = () => get<any[]>("/api/auth/passkey/list");
export const removePasskey = (id: number | string) => del(`/api/auth/passkey/${id}`);
