import { t } from "elysia";

const numeric = (description: string) => t.Union([t.Integer(), t.String({ pattern: "^\\d+$" })], { description });

/** Telegram Login Widget fields (id and auth_date as number or numeric string). */
const widget = t.Object({
  id: numeric("Telegram user id"),
  first_name: t.String({ maxLength: 256 }),
  last_name: t.Optional(t.String({ maxLength: 256 })),
  username: t.Optional(t.String({ maxLength: 64 })),
  photo_url: t.Optional(t.String({ maxLength: 2048 })),
  auth_date: numeric("Unix time of the widget sign-in"),
  hash: t.String({ minLength: 1, maxLength: 128 }),
});

const email = t.String({ minLength: 3, maxLength: 254, description: "email address" });
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
  idParams: t.Object({ id: t.Numeric() }),
};
