import { t } from "elysia";

export const TokenModel = {
  create: t.Object({
    name: t.String({ minLength: 1, maxLength: 100 }),
    scopes: t.Optional(t.Array(t.String(), { maxItems: 20 })),
    expiresInDays: t.Optional(t.Nullable(t.Integer({ minimum: 1, maximum: 3650 }))),
  }),
  idParams: t.Object({ id: t.Numeric() }),
};
