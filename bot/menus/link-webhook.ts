/**
 * A link's click webhook (screen `link-webhook`, drawn for a link id, under the card): target, state,
 * failure count and recent deliveries; turn on/off, send a signed test event, show or rotate the
 * signing secret (with confirmation). The URL and method are set from the card's "Webhook URL" option.
 */
import { getLinkWebhook, sendTestDelivery, setLinkWebhookEnabled } from "../../core/webhooks/link-webhook";
import { write } from "../audited";
import { getSigningSecret, rotateSigningSecret } from "../../core/webhooks/signing";
import { WEBHOOK_FAILURE_LIMIT } from "../../core/webhooks/failures";
import { listDeliveries } from "../../core/webhooks/deliveries";
import type { BotContext } from "../context";
import { mayChange, writes } from "../workspace";
import { date, l } from "../i18n";
import { deliveryProblem, targetProblem } from "../target-problem";
import { act, back, buttons, createScreen, go, idOf, open, payload } from "./nav";

const esc = (s: string) => Bun.escapeHTML(s);
const stateOf = (ctx: BotContext) => getLinkWebhook(ctx.deps, ctx.owner.id, idOf(ctx));
const STATUS = { pending: "⏳", sending: "📤", done: "✅", failed: "❌", cancelled: "✖️" } as const;

/** The screen's model: the link's webhook and (when it has one) its five newest deliveries, read once per draw. */
async function webhookOf(ctx: BotContext, ids: number[]) {
  const state = await getLinkWebhook(ctx.deps, ctx.owner.id, ids[0] ?? 0);
  const recent = state.url ? await listDeliveries(ctx.deps, ctx.owner.id, { linkId: state.linkId, limit: 5 }) : [];
  return { state, recent };
}

function webhookText(ctx: BotContext, { state: s, recent }: Awaited<ReturnType<typeof webhookOf>>): string {
  if (!s.url) return ctx.t("webhook-none", { code: esc(s.code), option: ctx.t("link-option-webhook") });
  const state = ctx.t(
    s.enabled ? "webhook-state-on" : s.failures >= WEBHOOK_FAILURE_LIMIT ? "webhook-state-off-failures" : "webhook-state-off",
  );
  return [
    ctx.t("webhook-title", { code: esc(s.code) }),
    ctx.t("webhook-target", { method: s.method, url: esc(s.url) }),
    ctx.t("webhook-state", { state }),
    ctx.t("webhook-failures", { count: s.failures, limit: WEBHOOK_FAILURE_LIMIT }),
    ctx.t("webhook-signed"),
    "",
    ctx.t(recent.length ? "webhook-recent" : "webhook-no-deliveries"),
    ...recent.map(
      (d) =>
        `${STATUS[d.status]} ${date(ctx, d.createdAt, true)} · ${d.topic === "click_webhook" ? ctx.t("webhook-click") : esc(d.topic)}${d.lastError ? ` · ${esc(deliveryProblem(ctx, d.lastError).slice(0, 80))}` : ""}`,
    ),
  ].join("\n");
}

export const webhookScreen = createScreen("link-webhook", 1, { load: webhookOf, body: webhookText });
export const rotateScreen = createScreen("link-webhook-rotate", 1, { body: (ctx) => ctx.t("webhook-rotate-confirm") });

buttons(webhookScreen, (ctx, range, { state: s }) => {
  const p = payload(webhookScreen);
  // a viewer reads the webhook's state and deliveries; switching, testing and its secret are for editors and up
  const w = writes(ctx, range);
  if (s.url) {
    const label = s.enabled ? (s.failures ? "webhook-on-failed" : "webhook-on") : s.failures ? "webhook-off-failed" : "webhook-off";
    w.text({ text: ctx.t(label, { count: s.failures }), payload: p }, (c) =>
      act(c, async () => {
        mayChange(c);
        const next = await write(c, setLinkWebhookEnabled, idOf(c), !(await stateOf(c)).enabled);
        await open(c, webhookScreen, [next.linkId], c.t(next.enabled ? "webhook-turned-on" : "webhook-turned-off"));
      }),
    ).row();
    w.text({ text: l("webhook-test"), payload: p }, (c) =>
      act(c, async () => {
        mayChange(c);
        const { linkId, code } = await stateOf(c);
        await c.reply(c.t("webhook-test-sending", { url: esc(s.url!) }), { link_preview_options: { is_disabled: true } });
        // the target may take up to the timeout: answer in the background so other updates are not held up
        void sendTestDelivery(c.deps, c.owner.id, linkId)
          .then((r) =>
            c.reply(
              r.ok
                ? c.t("webhook-test-ok", { code: esc(code), status: String(r.status) })
                : c.t("webhook-test-failed", { code: esc(code), error: esc(targetProblem(c, r)) }),
            ),
          )
          .catch((e) => c.deps.log.error(`bot: test webhook of link ${linkId} failed`, e));
      }),
    ).row();
    w.text({ text: l("webhook-show-secret"), payload: p }, (c) =>
      act(c, async () => {
        mayChange(c);
        await stateOf(c); // the link must still be theirs
        const { secret } = await getSigningSecret(c.deps, c.owner.id);
        await c.reply(c.t("webhook-secret", { secret }));
      }),
    );
    go(w, webhookScreen, l("webhook-rotate"), "link-webhook-rotate", (c) => [idOf(c)]);
    range.row();
  }
});
back(webhookScreen, l("stats-back"), "link", (c) => [idOf(c)]);

rotateScreen.text({ text: l("webhook-rotate-yes"), payload: payload(rotateScreen) }, (ctx) =>
  act(ctx, async () => {
    await stateOf(ctx); // the link must still be theirs
    mayChange(ctx);
    const { secret } = await write(ctx, rotateSigningSecret);
    await open(ctx, webhookScreen, [idOf(ctx)], ctx.t("webhook-rotated"));
    await ctx.reply(ctx.t("webhook-new-secret", { secret }));
  }),
);
back(rotateScreen, l("link-delete-cancel"), "link-webhook", (c) => [idOf(c)]);
