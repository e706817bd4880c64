import { t } from "elysia";

export const TokenModel = {
  create: t.Object({
    name: t.String({ minLength: 1, maxLength: 100 }),
    /** leave it out for the default `*`; an explicit empty list is refused, not widened to full access */
    scopes: t.Optional(t.Array(t.String(), { minItems: 1, maxItems: 20 })),
    expiresInDays: t.Optional(t.Nullable(t.Integer({ minimum: 1, maximum: 3650 }))),
  }),
  idParams: t.Object({ id: t.Numeric() }),
};
