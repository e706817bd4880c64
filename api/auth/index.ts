import { Elysia } from "elysia";
import type { Deps } from "../../core/deps";
import { loginWithInitData, loginWithWidget } from "../../core/auth/telegram";
import { refreshSession, revokeRefreshToken } from "../../core/auth/sessions";
import { sendLinkCode, sendLoginCode, verifyLinkCode, verifyLoginCode } from "../../core/auth/email";
import { accountOverview, unlinkIdentity } from "../../core/accounts/identities";
import { linkTelegramWidget } from "../../core/accounts/linking";
import { authPlugin } from "../shared/auth";
import { errors, OkModel } from "../shared/models";
import { AccountViews as V, AuthModel, snakeSession } from "./model";
import { passkeysApi } from "./passkeys";

const tags = ["auth"];

/** Sign-in (Telegram initData and Login Widget, email codes, passkeys), refresh, account linking. */
export function authApi(deps: Deps) {
  const signIn = new Elysia({ prefix: "/auth" })
    .use(authPlugin(deps))
    .post("/msgr", ({ body }) => loginWithInitData(deps, body.initData), {
      body: AuthModel.initData,
      response: { 200: V.session, ...errors(401, 503) },
      detail: { tags, summary: "Sign in with Telegram Mini App initData → {accessToken, refreshToken, user, subscription}" },
    })
    .post("/login-widget", ({ body }) => loginWithWidget(deps, body), {
      body: AuthModel.widget,
      response: { 200: V.session, ...errors(401, 503) },
      detail: { tags, summary: "Sign in with Telegram Login Widget data" },
    })
    .post(
      "/refresh",
      async ({ body }) => {
        const next = await refreshSession(deps, body.refresh_token);
        return { access_token: next.accessToken, refresh_token: next.refreshToken };
      },
      {
        body: AuthModel.refresh,
        response: { 200: V.refreshed, ...errors(401) },
        detail: { tags, summary: "Rotate a refresh token (reuse revokes the sign-in)" },
      },
    )
    .post(
      "/logout",
      async ({ body }) => {
        await revokeRefreshToken(deps, body.refresh_token);
        return { success: true };
      },
      { body: AuthModel.refresh, response: OkModel, detail: { tags, summary: "End the sign-in a refresh token belongs to" } },
    )
    .get("/me", ({ actorId }) => accountOverview(deps, actorId), {
      scope: "session",
      response: V.me,
      detail: { tags, summary: "The signed-in user, subscription and identities" },
    })
    .delete(
      "/identities/:id",
      async ({ actorId, params }) => {
        await unlinkIdentity(deps, actorId, params.id);
        return { success: true };
      },
      {
        scope: "session",
        params: AuthModel.idParams,
        response: { 200: OkModel, ...errors(409) },
        detail: { tags, summary: "Unlink a Telegram or email sign-in (409 last_sign_in for the only one)" },
      },
    )
    .post(
      "/email/send-otp",
      async ({ body }) => {
        await sendLoginCode(deps, body.email);
        return { success: true };
      },
      { body: AuthModel.email, response: { 200: OkModel, ...errors(503) }, detail: { tags, summary: "Email a 6-digit sign-in code" } },
    )
    .post("/email/verify-otp", async ({ body }) => snakeSession(await verifyLoginCode(deps, body.email, body.code)), {
      body: AuthModel.emailCode,
      response: { 200: V.snakeSession, ...errors(401) },
      detail: { tags, summary: "Sign in with an emailed code (creates the account on first use)" },
    })
    .post(
      "/email/send-link-otp",
      async ({ actorId, body }) => {
        await sendLinkCode(deps, actorId, body.email);
        return { success: true };
      },
      {
        scope: "session",
        body: AuthModel.email,
        response: { 200: OkModel, ...errors(409, 503) },
        detail: { tags, summary: "Email a code to link this email to the account" },
      },
    )
    .post("/email/verify-link-otp", ({ actorId, body }) => verifyLinkCode(deps, actorId, body.email, body.code), {
      scope: "session",
      body: AuthModel.emailCode,
      response: { 200: V.linked, ...errors(409) },
      detail: { tags, summary: "Link the email; merges when it already has an account" },
    })
    .post("/msgr/link-widget", ({ actorId, body }) => linkTelegramWidget(deps, actorId, body), {
      scope: "session",
      body: AuthModel.widget,
      response: { 200: V.linked, ...errors(409, 503) },
      detail: { tags, summary: "Link a Telegram account (Login Widget data); merges when it already has an account" },
    });

  return new Elysia({ name: "auth-api" }).use(signIn).use(passkeysApi(deps));
}
