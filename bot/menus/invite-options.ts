/**
 * An invite's editable options, one button each: the question, and the parse of its one answer into
 * the API's input, saved through the same core function (same checks, same Telegram calls).
 */
import type { InviteInput } from "../../core/channels/invite-input";
import type { InviteRow } from "../../core/channels/invites";
import { ValidationError } from "../../core/errors";
import { parseWhen, whenExamples } from "../../core/links/when";

export interface InviteOption {
  /** the button (a translation key) */
  label: string;
  prompt: string;
  parse: (text: string, invite: InviteRow, now: Date) => InviteInput;
  clear?: InviteInput;
  /** shown only for invites with join requests, or only without */
  only?: "requests" | "open";
}

const bad = (m: string): never => {
  throw new ValidationError(m);
};

export const INVITE_OPTIONS: InviteOption[] = [
  { label: "invite-option-name", prompt: "Send the new name (at most 32 characters; people joining do not see it).", parse: (t) => ({ name: t }) },
  {
    label: "invite-option-price",
    prompt: "Send what the ad cost, as an amount and a currency, e.g. 150 USD or 12000 RUB.",
    parse: (t) => {
      const s = t.trim().replace(",", ".");
      const after = /^(\d+(?:\.\d{1,2})?)\s*([A-Za-z]{3})$/.exec(s);
      const before = /^([A-Za-z]{3})\s*(\d+(?:\.\d{1,2})?)$/.exec(s);
      const [amount, currency] = after ? [after[1]!, after[2]!] : before ? [before[2]!, before[1]!] : bad("Send an amount and a currency code, e.g. 150 USD.");
      return { cost: { amount: Number(amount), currency: currency.toUpperCase() } };
    },
    clear: { cost: null },
  },
  {
    label: "invite-option-expiry",
    prompt: "Send when the link stops working, e.g. {when}.",
    parse: (t, _i, now) => {
      const d = parseWhen(t, now);
      return d && d.getTime() > now.getTime() ? { expires_at: d.toISOString() } : bad(`The expiry must be a time in the future — try ${whenExamples(now)}.`);
    },
    clear: { expires_at: null },
  },
  {
    label: "invite-option-member-limit",
    prompt: "Send how many people may join through the link (1 to 99999).",
    parse: (t) => (/^\d{1,6}$/.test(t.trim()) ? { member_limit: Number(t.trim()) } : bad("Send a whole number from 1 to 99999.")),
    clear: { member_limit: null },
    only: "open",
  },
  {
    label: "invite-option-welcome",
    prompt: "Send the message each person who asks to join gets from me at once (at most 1000 characters).",
    parse: (t) => ({ welcome: t }),
    clear: { welcome: null },
    only: "requests",
  },
  {
    label: "invite-option-approval",
    prompt: "Send “auto” to let everyone in at once, or “manual” to approve or decline each request here.",
    parse: (t) => (/^auto/i.test(t) ? { approve: "auto" } : /^man/i.test(t) ? { approve: "manual" } : bad("Send “auto” or “manual”.")),
    only: "requests",
  },
];
