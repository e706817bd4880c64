import { Elysia, t } from "elysia";
import type { Deps } from "../../core/deps";
import { getSigningSecret, rotateSigningSecret, type SigningSecret } from "../../core/webhooks/signing";
import { sendTestDelivery } from "../../core/webhooks/link-webhook";
import { listDeliveries, redeliver } from "../../core/webhooks/deliveries";
import { authPlugin } from "../shared/auth";
import { errors } from "../shared/models";
import { WebhookModel } from "./model";

const view = (s: SigningSecret) => ({
  secret: s.secret,
  createdAt: s.createdAt.toISOString(),
  rotatedAt: s.rotatedAt?.toISOString() ?? null,
});

/**
 * Webhook signing secret (see docs/webhooks.md): read it, rotate it; a test delivery for a link; the
 * delivery log and redelivery. The secret and sends need `write:links` (whoever may set webhook
 * targets may sign for them); the log needs `read:links`.
 */
export function webhooksApi(deps: Deps) {
  return new Elysia({ name: "webhooks", prefix: "/webhooks" })
    .use(authPlugin(deps))
    .get("/secret", async ({ userId }) => view(await getSigningSecret(deps, userId)), {
      scope: "write:links",
      response: WebhookModel.secret,
      detail: { tags: ["webhooks"], summary: "The webhook signing secret (created on first read)" },
    })
    .post("/secret/rotate", async ({ userId }) => view(await rotateSigningSecret(deps, userId)), {
      scope: "write:links",
      response: WebhookModel.secret,
      detail: { tags: ["webhooks"], summary: "Replace the webhook signing secret" },
    })
    .post("/links/:id/test", ({ userId, params }) => sendTestDelivery(deps, userId, params.id), {
      scope: "write:links",
      params: WebhookModel.linkParams,
      response: WebhookModel.testResult,
      detail: { tags: ["webhooks"], summary: "Send a signed test event to the link's webhook now" },
    })
    .get("/deliveries", ({ userId, query }) => listDeliveries(deps, userId, query), {
      scope: "read:links",
      query: WebhookModel.deliveriesQuery,
      response: { 200: t.Array(WebhookModel.delivery), ...errors(404) },
      detail: { tags: ["webhooks"], summary: "Recent webhook deliveries, newest first" },
    })
    .post("/deliveries/:id/redeliver", ({ userId, params }) => redeliver(deps, userId, params.id), {
      scope: "write:links",
      params: WebhookModel.deliveryParams,
      response: { 200: WebhookModel.delivery, ...errors(409) },
      detail: { tags: ["webhooks"], summary: "Queue a failed delivery again" },
    });
}
