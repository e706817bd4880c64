import type { Session } from "../../core/auth/sessions";
import { t, type Static } from "elysia";
import { PLANS, type Plan } from "../../config-plans";
import { DateTime, IdParams, formatted } from "../shared/models";

const numeric = (description: string) => t.Union([t.Integer(), t.String({ pattern: "^\\d+$" })], { description });

/** Telegram Login Widget fields (id and auth_date as number or numeric string). */
const widget = t.Object({
  id: numeric("Telegram user id"),
  first_name: t.String({ maxLength: 256 }),
  last_name: t.Optional(t.String({ maxLength: 256 })),
  username: t.Optional(t.String({ maxLength: 64 })),
  photo_url: t.Optional(formatted("uri", { maxLength: 2048 })),
  auth_date: numeric("Unix time of the widget sign-in"),
  hash: t.String({ minLength: 1, maxLength: 128 }),
});

const email = formatted("email", { minLength: 3, maxLength: 254, description: "email address" });
const code = t.String({ minLength: 1, maxLength: 16, description: "the 6-digit code from the email" });

export const AuthModel = {
  initData: t.Object({ initData: t.String({ minLength: 1, maxLength: 8192 }) }),
  widget,
  refresh: t.Object({ refresh_token: t.String({ minLength: 1, maxLength: 512 }) }),
  email: t.Object({ email }),
  emailCode: t.Object({ email, code }),
  passkeyLoginOptions: t.Object({ email: t.Optional(email) }),
  /** the browser's PublicKeyCredential JSON (RegistrationResponseJSON / AuthenticationResponseJSON) */
  credential: t.Object(
    {
      id: t.String({ minLength: 1, maxLength: 1024 }),
      rawId: t.String({ minLength: 1, maxLength: 1024 }),
      type: t.Literal("public-key"),
      response: t.Record(t.String(), t.Any()),
      clientExtensionResults: t.Optional(t.Record(t.String(), t.Any())),
      authenticatorAttachment: t.Optional(t.String()),
      /** registration only: a label for the new passkey */
      name: t.Optional(t.String({ maxLength: 100 })),
    },
    { additionalProperties: true },
  ),
  idParams: IdParams,
};

const plan = t.UnionEnum(PLANS as [Plan, ...Plan[]]);
const user = t.Object({
  id: t.Integer(),
  msgrId: t.Nullable(t.Integer({ description: "Telegram user id" })),
  username: t.Nullable(t.String()),
  firstName: t.Nullable(t.String()),
  email: t.Nullable(formatted("email")),
});
const subscription = t.Object({ plan, expiresAt: t.Nullable(DateTime()) });
const limits = t.Object({
  links: t.Integer(),
  trackers: t.Integer(),
  secureFiles: t.Integer(),
  storageMB: t.Number({ description: "the account's own files" }),
  requestStorageMB: t.Number({ description: "files and texts strangers sent through the account's request links, apart from storageMB" }),
});

/** What the sign-in and account routes answer. */
export const AccountViews = {
  user,
  subscription,
  /** Telegram sign-ins (camelCase, as the Mini App has always read them) */
  session: t.Object({ accessToken: t.String(), refreshToken: t.String(), user, subscription }),
  /** email-code and passkey sign-ins (snake_case, CONTRACT §4) */
  snakeSession: t.Object({ access_token: t.String(), refresh_token: t.String(), user, subscription }),
  refreshed: t.Object({ access_token: t.String(), refresh_token: t.String() }),
  me: t.Object({
    user,
    subscription,
    identities: t.Array(
      t.Object({
        id: t.Optional(t.Integer({ description: "absent for passkeys (remove those under /passkey)" })),
        provider: t.UnionEnum(["telegram", "email", "passkey"]),
        subject: t.String(),
        name: t.Optional(t.Nullable(t.String())),
        createdAt: DateTime(),
      }),
    ),
  }),
  linked: t.Object({
    success: t.Literal(true),
    merged: t.Boolean({ description: "the other sign-in had its own account, now merged into this one" }),
    user,
  }),
  passkey: t.Object({
    id: t.Integer(),
    name: t.Nullable(t.String()),
    deviceType: t.Nullable(t.String()),
    backedUp: t.Boolean(),
    transports: t.Array(t.String()),
    createdAt: DateTime(),
    lastUsedAt: t.Nullable(DateTime()),
  }),
  /** WebAuthn options for the browser (PublicKeyCredentialCreationOptionsJSON / …RequestOptionsJSON) */
  webauthnOptions: t.Object({ challenge: t.String() }, { additionalProperties: true }),
  usage: t.Object({ subscription, limits, usage: limits }),
};

export type AccountUsage = Static<typeof AccountViews.usage>;
export type Me = Static<typeof AccountViews.me>;

/** The snake_case session body of the email-code and passkey sign-ins (CONTRACT §4). */
export const snakeSession = (s: Session) => ({
  access_token: s.accessToken,
  refresh_token: s.refreshToken,
  user: s.user,
  subscription: s.subscription,
});
