import { t } from "elysia";
import { DateTime, IdParams, Url, Words } from "../shared/models";

export const WebhookModel = {
  deliveriesQuery: t.Object({
    linkId: t.Optional(
      t.Numeric({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, error: "must be a link id (a whole number, 1 or more)" }),
    ),
    limit: t.Optional(t.Numeric({ minimum: 1, maximum: 100, multipleOf: 1, default: 20, error: "must be a whole number from 1 to 100" })),
    offset: t.Optional(
      t.Numeric({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, multipleOf: 1, default: 0, error: "must be a whole number, 0 or more" }),
    ),
  }),
  deliveryParams: t.Object({ id: t.String({ format: "uuid" }) }),
  linkParams: IdParams,
  secret: t.Object({ secret: t.String(), createdAt: DateTime(), rotatedAt: t.Nullable(DateTime()) }),
  testResult: t.Object({
    ok: t.Boolean(),
    status: t.Optional(t.Integer({ description: "the target's HTTP status" })),
    error: t.Optional(t.String()),
    kind: t.Optional(
      Words(["status", "timeout", "network", "refused", "invalid"], {
        description:
          "why it failed: status (the target answered outside 2xx), timeout, network (not reached), refused (an internal address), invalid (not a usable URL)",
      }),
    ),
    deliveryId: t.String({ format: "uuid" }),
  }),
  delivery: t.Object({
    id: t.String({ format: "uuid" }),
    topic: t.String({ description: "click_webhook for a link's webhook" }),
    linkId: t.Nullable(t.Integer()),
    url: Url(),
    method: t.String(),
    status: t.UnionEnum(["pending", "sending", "done", "failed", "cancelled"]),
    attempts: t.Integer(),
    lastError: t.Nullable(t.String()),
    createdAt: DateTime(),
    nextAttemptAt: t.Nullable(DateTime()),
    completedAt: t.Nullable(DateTime()),
  }),
};
