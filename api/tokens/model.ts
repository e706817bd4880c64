import { t, type Static } from "elysia";
import { DateTime, IdParams, Words } from "../shared/models";
import { SCOPES } from "../../core/tokens/scopes";

export const TokenModel = {
  create: t.Object({
    name: t.String({ minLength: 1, maxLength: 100 }),
    /** leave it out for the default `*`; an explicit empty list is refused, not widened to full access */
    scopes: t.Optional(t.Array(Words(SCOPES), { minItems: 1, maxItems: 20 })),
    expiresInDays: t.Optional(t.Nullable(t.Integer({ minimum: 1, maximum: 3650 }))),
  }),
  idParams: IdParams,
};

const token = {
  id: t.Integer(),
  name: t.String(),
  scopes: t.Array(t.String({ description: "a scope such as read:links, or * for all" })),
  hint: t.String({ description: "the first characters of the secret, to tell tokens apart" }),
  createdAt: DateTime(),
  expiresAt: t.Nullable(DateTime()),
  lastUsedAt: t.Nullable(DateTime()),
  revokedAt: t.Nullable(DateTime()),
  madeBy: t.Integer({ description: "the id of the person who made it; the token acts with their role in its workspace" }),
};

/** What the token routes answer: the secret only once, on create. */
export const TokenViews = {
  token: t.Object(token),
  created: t.Object({ ...token, token: t.String({ description: "the secret (lbt_sk_…), shown only now" }) }),
};

export type ApiToken = Static<typeof TokenViews.token>;
