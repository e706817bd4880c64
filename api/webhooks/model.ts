import { t } from "elysia";

export const WebhookModel = {
  deliveriesQuery: t.Object({
    linkId: t.Optional(t.Numeric({ minimum: 1 })),
    limit: t.Optional(t.Numeric({ minimum: 1, maximum: 100, multipleOf: 1, default: 20, error: "must be a whole number from 1 to 100" })),
    offset: t.Optional(t.Numeric({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, default: 0, error: "must be a whole number, 0 or more" })),
  }),
  deliveryParams: t.Object({ id: t.String({ format: "uuid" }) }),
  linkParams: t.Object({ id: t.Numeric({ minimum: 1 }) }),
  secret: t.Object({ secret: t.String(), createdAt: t.String(), rotatedAt: t.Nullable(t.String()) }),
  testResult: t.Object({ ok: t.Boolean(), status: t.Optional(t.Number()), error: t.Optional(t.String()), deliveryId: t.String() }),
};
