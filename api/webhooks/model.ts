import { t } from "elysia";

export const WebhookModel = {
  linkParams: t.Object({ id: t.Numeric({ minimum: 1 }) }),
  secret: t.Object({ secret: t.String(), createdAt: t.String(), rotatedAt: t.Nullable(t.String()) }),
  testResult: t.Object({ ok: t.Boolean(), status: t.Optional(t.Number()), error: t.Optional(t.String()), deliveryId: t.String() }),
};
