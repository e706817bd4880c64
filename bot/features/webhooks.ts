/**
 * Click webhook controls in the bot (callback prefix `wh:`):
 *   wh:show:<linkId>    the webhook card (target, state, failure count)
 *   wh:on:<id> / wh:off:<id>   toggle (on resets the failure count)
 *   wh:test:<id>        send a signed test event now and tell what the target answered
 *   wh:secret:<id>      show the signing secret
 *   wh:rotate:<id>      ask to rotate the signing secret; wh:rotok:<id> does it
 * The link card of the links feature shows `webhookCardButtons(link)`.
 */
import { Composer } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import type { BotContext } from "../context";
import { AppError } from "../../core/errors";
import { getLinkWebhook, sendTestDelivery, setLinkWebhookEnabled, type LinkWebhookState } from "../../core/webhooks/link-webhook";
import { getSigningSecret, rotateSigningSecret } from "../../core/webhooks/signing";
import { WEBHOOK_FAILURE_LIMIT } from "../../core/webhooks/failures";

type Button = { text: string; callback_data: string };

/** Buttons for a link card (one per row): state with failure count as a toggle, test, rotate secret. None without a webhook URL. */
export function webhookCardButtons(link: { id: number; webhookUrl: string | null; webhookEnabled: boolean; webhookFailures: number }): Button[] {
  if (!link.webhookUrl) return [];
  const failures = link.webhookFailures ? ` · ${link.webhookFailures} failed` : "";
  return [
    link.webhookEnabled
      ? { text: `🔔 Webhook on${failures} — turn off`, callback_data: `wh:off:${link.id}` }
      : { text: `🔕 Webhook off${failures} — turn on`, callback_data: `wh:on:${link.id}` },
    { text: "🧪 Send test webhook", callback_data: `wh:test:${link.id}` },
    { text: "🔑 Rotate signing secret", callback_data: `wh:rotate:${link.id}` },
  ];
}

const buttonsOf = (s: LinkWebhookState) =>
  webhookCardButtons({ id: s.linkId, webhookUrl: s.url, webhookEnabled: s.enabled, webhookFailures: s.failures });

function cardText(s: LinkWebhookState): string {
  if (!s.url) return `Link /${s.code} has no click webhook. Set a webhook URL when editing the link.`;
  const state = s.enabled ? "on ✅" : s.failures >= WEBHOOK_FAILURE_LIMIT ? "off ⏸ (turned off after too many failed deliveries)" : "off ⏸";
  return [
    `🔔 Click webhook of /${s.code}`,
    `Target: ${s.method} ${s.url}`,
    `State: ${state}`,
    `Failed deliveries: ${s.failures} of ${WEBHOOK_FAILURE_LIMIT} (at ${WEBHOOK_FAILURE_LIMIT} it is turned off; turning it on resets the count)`,
    `Requests are signed with your secret: header X-Webhook-Signature.`,
  ].join("\n");
}

function cardKeyboard(s: LinkWebhookState): InlineKeyboardButton[][] {
  const rows: InlineKeyboardButton[][] = buttonsOf(s).map((b) => [b]);
  if (s.url) rows.push([{ text: "👁 Show signing secret", callback_data: `wh:secret:${s.linkId}` }]);
  return rows;
}

/** The message's keyboard with its `wh:` buttons replaced by fresh ones (the rest of a link card stays). */
function refreshedKeyboard(ctx: BotContext, s: LinkWebhookState): InlineKeyboardButton[][] {
  const old = (ctx.callbackQuery?.message as { reply_markup?: { inline_keyboard: InlineKeyboardButton[][] } } | undefined)?.reply_markup?.inline_keyboard;
  if (!old?.length) return cardKeyboard(s);
  const ours = (row: InlineKeyboardButton[]) => row.some((b) => /^wh:(on|off|test|rotate):/.test(("callback_data" in b && b.callback_data) || ""));
  const fresh = buttonsOf(s).map((b) => [b]);
  const at = old.findIndex(ours);
  if (at < 0) return [...old, ...fresh];
  const rest = old.filter((row) => !ours(row));
  return [...rest.slice(0, at), ...fresh, ...rest.slice(at)];
}

export const webhooksFeature = new Composer<BotContext>();

webhooksFeature.callbackQuery(/^wh:(show|on|off|test|secret|rotate|rotok):(\d+)$/, async (ctx) => {
  const [, action, id] = ctx.match as RegExpMatchArray;
  const linkId = Number(id);
  const deps = ctx.deps;
  if (!ctx.user) return ctx.answerCallbackQuery({ text: "Open this in a private chat with the bot.", show_alert: true });
  const userId = ctx.user.id;
  try {
    switch (action) {
      case "show": {
        const s = getLinkWebhook(deps, userId, linkId);
        await ctx.answerCallbackQuery();
        return await ctx.editMessageText(cardText(s), { reply_markup: { inline_keyboard: cardKeyboard(s) }, link_preview_options: { is_disabled: true } });
      }
      case "on":
      case "off": {
        const s = setLinkWebhookEnabled(deps, userId, linkId, action === "on");
        await ctx.answerCallbackQuery(s.enabled ? "Webhook on; failure count reset to 0." : "Webhook off: clicks are no longer sent.");
        return await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: refreshedKeyboard(ctx, s) } });
      }
      case "test": {
        const s = getLinkWebhook(deps, userId, linkId);
        await ctx.answerCallbackQuery("Sending a test delivery…");
        // the target may take up to the timeout: answer in the background so other updates are not held up
        void sendTestDelivery(deps, userId, linkId)
          .then((r) => ctx.reply(r.ok ? `✅ Test webhook of /${s.code} sent: the target answered ${r.status}.` : `❌ Test webhook of /${s.code} failed: ${r.error}.`))
          .catch((e) => deps.log.error(`bot: test webhook of link ${linkId} failed`, e));
        return;
      }
      case "secret": {
        getLinkWebhook(deps, userId, linkId);
        await ctx.answerCallbackQuery();
        const { secret } = getSigningSecret(deps, userId);
        return await ctx.reply(`Your webhook signing secret (the same for all your links):\n<code>${secret}</code>`, { parse_mode: "HTML" });
      }
      case "rotate": {
        getLinkWebhook(deps, userId, linkId);
        await ctx.answerCallbackQuery();
        return await ctx.reply("Rotate the signing secret? Every receiver of your webhooks must switch to the new secret; deliveries signed from now on use it.", {
          reply_markup: { inline_keyboard: [[{ text: "🔑 Yes, rotate", callback_data: `wh:rotok:${linkId}` }, { text: "Cancel", callback_data: `wh:show:${linkId}` }]] },
        });
      }
      case "rotok": {
        getLinkWebhook(deps, userId, linkId);
        const { secret } = rotateSigningSecret(deps, userId);
        await ctx.answerCallbackQuery("Secret rotated.");
        return await ctx.editMessageText(`🔑 New signing secret:\n<code>${secret}</code>\nUpdate your receivers.`, { parse_mode: "HTML" });
      }
    }
  } catch (e) {
    if (e instanceof AppError) return ctx.answerCallbackQuery({ text: e.message.slice(0, 200), show_alert: true });
    throw e;
  }
});
