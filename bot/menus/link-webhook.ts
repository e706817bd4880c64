/**
 * A link's click webhook (screen `link-webhook`, drawn for a link id, under the card): target, state,
 * failure count and recent deliveries; turn on/off, send a signed test event, show or rotate the
 * signing secret (with confirmation). The URL and method are set from the card's "Webhook URL" option.
 */
import { getLinkWebhook, sendTestDelivery, setLinkWebhookEnabled, type LinkWebhookState } from "../../core/webhooks/link-webhook";
import { getSigningSecret, rotateSigningSecret } from "../../core/webhooks/signing";
import { WEBHOOK_FAILURE_LIMIT } from "../../core/webhooks/failures";
import { listDeliveries } from "../../core/webhooks/deliveries";
import type { BotContext } from "../context";
import { act, back, createScreen, dynamic, go, idOf, open, payload } from "./nav";

const esc = (s: string) => Bun.escapeHTML(s);
const stateOf = (ctx: BotContext) => getLinkWebhook(ctx.deps, ctx.user!.id, idOf(ctx));
const STATUS = { pending: "⏳", sending: "📤", done: "✅", failed: "❌", cancelled: "✖️" } as const;

async function webhookText(ctx: BotContext, s: LinkWebhookState): Promise<string> {
  if (!s.url) return `Link /${s.code} has no click webhook. Set one with “🔔 Webhook URL” on the link's card.`;
  const state = s.enabled ? "on ✅" : s.failures >= WEBHOOK_FAILURE_LIMIT ? "off ⏸ (turned off after too many failed deliveries)" : "off ⏸";
  const recent = await listDeliveries(ctx.deps, ctx.user!.id, { linkId: s.linkId, limit: 5 });
  return [
    `🔔 <b>Click webhook of /${esc(s.code)}</b>`,
    `Target: ${s.method} ${esc(s.url)}`,
    `State: ${state}`,
    `Failed deliveries: ${s.failures} of ${WEBHOOK_FAILURE_LIMIT} (at ${WEBHOOK_FAILURE_LIMIT} it is turned off; turning it on resets the count)`,
    "Requests are signed with your secret: header X-Webhook-Signature.",
    "",
    recent.length ? "<b>Recent deliveries</b>" : "No deliveries yet.",
    ...recent.map((d) => `${STATUS[d.status]} ${d.createdAt.replace("T", " ").slice(0, 16)} · ${d.topic === "click_webhook" ? "click" : esc(d.topic)}${d.lastError ? ` · ${esc(d.lastError.slice(0, 80))}` : ""}`),
  ].join("\n");
}

export const webhookScreen = createScreen("link-webhook", 1, async (ctx) => webhookText(ctx, await stateOf(ctx)));
export const rotateScreen = createScreen("link-webhook-rotate", 1, () =>
  "Rotate the signing secret? Every receiver of your webhooks must switch to the new secret; deliveries signed from now on use it.");

dynamic(webhookScreen.menu, async (ctx, range) => {
  const s = await stateOf(ctx);
  const p = payload(webhookScreen);
  if (s.url) {
    const failures = s.failures ? ` · ${s.failures} failed` : "";
    range.text({ text: s.enabled ? `🔔 On${failures} — turn off` : `🔕 Off${failures} — turn on`, payload: p }, (c) => act(c, async () => {
      const next = await setLinkWebhookEnabled(c.deps, c.user!.id, idOf(c), !(await stateOf(c)).enabled);
      await open(c, webhookScreen, [next.linkId], next.enabled ? "🔔 Webhook on; failure count reset to 0." : "🔕 Webhook off: clicks are no longer sent.");
    })).row();
    range.text({ text: "🧪 Send test webhook", payload: p }, (c) => act(c, async () => {
      const { linkId, code } = await stateOf(c);
      await c.reply(`⏳ Sending a test delivery to ${s.url}…`, { link_preview_options: { is_disabled: true } });
      // the target may take up to the timeout: answer in the background so other updates are not held up
      void sendTestDelivery(c.deps, c.user!.id, linkId)
        .then((r) => c.reply(r.ok ? `✅ Test webhook of /${code} sent: the target answered ${r.status}.` : `❌ Test webhook of /${code} failed: ${r.error}.`))
        .catch((e) => c.deps.log.error(`bot: test webhook of link ${linkId} failed`, e));
    })).row();
    range.text({ text: "👁 Show signing secret", payload: p }, (c) => act(c, async () => {
      await stateOf(c); // the link must still be theirs
      const { secret } = await getSigningSecret(c.deps, c.user!.id);
      await c.reply(`Your webhook signing secret (the same for all your links):\n<code>${secret}</code>`, { parse_mode: "HTML" });
    }));
    go(range, webhookScreen, "🔑 Rotate secret", "link-webhook-rotate", (c) => [idOf(c)]);
    range.row();
  }
});
back(webhookScreen, "⬅️ Link", "link", (c) => [idOf(c)]);

rotateScreen.menu.text({ text: "🔑 Yes, rotate", payload: payload(rotateScreen) }, (ctx) => act(ctx, async () => {
  await stateOf(ctx); // the link must still be theirs
  const { secret } = await rotateSigningSecret(ctx.deps, ctx.user!.id);
  await open(ctx, webhookScreen, [idOf(ctx)], "🔑 Secret rotated: the new one is in the next message. Update your receivers.");
  await ctx.reply(`🔑 New signing secret:\n<code>${secret}</code>`, { parse_mode: "HTML" });
}));
back(rotateScreen, "Cancel", "link-webhook", (c) => [idOf(c)]);
