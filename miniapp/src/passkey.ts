/** Passkeys through @simplewebauthn/browser (loaded on demand, bundled with the app). */
import { t } from "./i18n";
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { call, client } from "./api";

const lib = () => import("@simplewebauthn/browser");

/**
 * The options object may come bare or wrapped ({options}). The API's schema names only its challenge
 * (the rest is the WebAuthn library's output, passed through as is), so it is read as the browser
 * library's options type `O`.
 */
function unwrap<O>(o: { challenge: string }): O {
  const wrapped = (o as { options?: unknown }).options;
  return (wrapped ?? o) as O;
}

/**
 * A readable message for a failed browser prompt. Browsers report a cancelled prompt, a timeout and
 * "no passkey on this device for this site/account" all as NotAllowedError (on purpose, for
 * privacy), so the message names all three; other errors keep their own text.
 */
function promptError(e: unknown, signIn: { email?: string } | null): Error {
  const err = e as { name?: string; cause?: { name?: string } };
  const notAllowed = err?.name === "NotAllowedError" || err?.cause?.name === "NotAllowedError";
  if (notAllowed && signIn)
    return new Error(signIn.email ? t("app-passkey-not-used-for", { email: signIn.email }) : t("app-passkey-not-used"));
  if (notAllowed) return new Error(t("app-passkey-not-created"));
  return e instanceof Error ? e : new Error(String(e));
}

/** Registers a passkey for the signed-in user. */
export async function registerPasskey(name?: string) {
  const { startRegistration } = await lib();
  const options = unwrap<PublicKeyCredentialCreationOptionsJSON>(
    await call(client.api.auth.passkey.register.options.post(name ? { name } : {})),
  );
  const response = await startRegistration({ optionsJSON: options }).catch((e) => Promise.reject(promptError(e, null)));
  return call(client.api.auth.passkey.register.verify.post(name ? { ...response, name } : response));
}

/**
 * Signs in with a passkey; returns the session response. With an email the browser is offered
 * that account's passkeys; without one it offers the discoverable passkeys it holds for this site.
 */
export async function loginWithPasskey(email?: string) {
  const { startAuthentication } = await lib();
  const options = unwrap<PublicKeyCredentialRequestOptionsJSON>(
    await call(client.api.auth.passkey.login.options.post(email ? { email } : {})),
  );
  const response = await startAuthentication({ optionsJSON: options }).catch((e) => Promise.reject(promptError(e, { email })));
  return call(client.api.auth.passkey.login.verify.post(response));
}

export const listPasskeys = () => call(client.api.auth.passkey.list.get());
export const removePasskey = (id: number | string) => call(client.api.auth.passkey({ id }).delete());
