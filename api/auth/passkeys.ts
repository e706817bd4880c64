import { Elysia, t } from "elysia";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Deps } from "../../core/deps";
import {
  deletePasskey,
  listPasskeys,
  passkeyLoginOptions,
  passkeyRegistrationOptions,
  verifyPasskeyLogin,
  verifyPasskeyRegistration,
} from "../../core/auth/passkeys";
import { authPlugin } from "../shared/auth";
import { errors, OkModel } from "../shared/models";
import { AccountViews as V, AuthModel, snakeSession } from "./model";

const tags = ["auth"];

/** Passkeys under /auth/passkey: registering, listing and removing them (signed in), and signing in with one (public). */
export function passkeysApi(deps: Deps) {
  return new Elysia({ name: "auth-passkeys", prefix: "/auth" })
    .use(authPlugin(deps))
    .post("/passkey/register/options", ({ actorId }) => passkeyRegistrationOptions(deps, actorId), {
      scope: "session",
      response: V.webauthnOptions,
      detail: { tags, summary: "WebAuthn registration options (challenge valid 5 minutes, once)" },
    })
    .post(
      "/passkey/register/verify",
      async ({ actorId, body, set }) => {
        const { name, ...response } = body;
        const passkey = await verifyPasskeyRegistration(deps, actorId, response as unknown as RegistrationResponseJSON, name);
        set.status = 201;
        return passkey;
      },
      {
        scope: "session",
        body: AuthModel.credential,
        response: { 201: V.passkey, ...errors(409) },
        detail: { tags, summary: "Store a passkey from the browser's registration response" },
      },
    )
    .get("/passkey/list", ({ actorId }) => listPasskeys(deps, actorId), {
      scope: "session",
      response: t.Array(V.passkey),
      detail: { tags, summary: "The user's passkeys" },
    })
    .delete(
      "/passkey/:id",
      async ({ actorId, params }) => {
        await deletePasskey(deps, actorId, params.id);
        return { success: true };
      },
      { scope: "session", params: AuthModel.idParams, response: OkModel, detail: { tags, summary: "Remove a passkey" } },
    )
    .post("/passkey/login/options", ({ body }) => passkeyLoginOptions(deps, body.email), {
      body: AuthModel.passkeyLoginOptions,
      response: V.webauthnOptions,
      detail: { tags, summary: "WebAuthn sign-in options for an email (public)" },
    })
    .post(
      "/passkey/login/verify",
      async ({ body }) => snakeSession(await verifyPasskeyLogin(deps, body as unknown as AuthenticationResponseJSON)),
      {
        body: AuthModel.credential,
        response: { 200: V.snakeSession, ...errors(401) },
        detail: { tags, summary: "Sign in with the browser's WebAuthn assertion (public)" },
      },
    );
}
