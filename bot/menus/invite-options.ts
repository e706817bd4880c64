/**
 * An invite's editable options, one button each: the question, and the parse of its one answer into
 * the API's input, saved through the same core function (same checks, same Telegram calls).
 */
import type { InviteInput } from "../../core/channels/invite-input";
import type { InviteRow } from "../../core/channels/invites";
import { Refusal } from "../problem";
import { parseWhen } from "../../core/links/when";
import { whenExamples, type Reader } from "../../core/i18n/wall";

export interface InviteOption {
  /** the button (a translation key) */
  label: string;
  /** the question (a translation key; `{ $when }` gets examples of times from today) */
  prompt: string;
  /** `reader`: the user's language and time zone, which times are read in */
  parse: (text: string, invite: InviteRow, at: { now: Date; reader: Reader }) => InviteInput;
  clear?: InviteInput;
  /** a few-way option: its answers as buttons (a translation key and the input it gives), and its words typed */
  choices?: { buttons: [string, InviteInput][]; read: (text: string) => InviteInput | null };
  /** shown only for invites with join requests, or only without */
  only?: "requests" | "open";
}

const bad = (key: string, vars?: Record<string, string>): never => {
  throw new Refusal(key, vars);
};

/** "auto" / "авто" / "сразу", "manual" / "вручную" / "сам": how requests are approved, or null. */
function readApproval(text: string): InviteInput | null {
  const t = text.trim();
  if (/^(auto|авто|at once|сразу|всех)/i.test(t)) return { approve: "auto" };
  if (/^(man|вруч|myself|сам)/i.test(t)) return { approve: "manual" };
  return null;
}

export const INVITE_OPTIONS: InviteOption[] = [
  { label: "invite-option-name", prompt: "invite-prompt-name", parse: (t) => ({ name: t }) },
  {
    label: "invite-option-price",
    prompt: "invite-prompt-price",
    parse: (t) => {
      const s = t.trim().replace(",", ".");
      const after = /^(\d+(?:\.\d{1,2})?)\s*([A-Za-z]{3})$/.exec(s);
      const before = /^([A-Za-z]{3})\s*(\d+(?:\.\d{1,2})?)$/.exec(s);
      const [amount, currency] = after ? [after[1]!, after[2]!] : before ? [before[2]!, before[1]!] : bad("invite-refuse-price");
      return { cost: { amount: Number(amount), currency: currency.toUpperCase() } };
    },
    clear: { cost: null },
  },
  {
    label: "invite-option-expiry",
    prompt: "invite-prompt-expiry",
    parse: (t, _i, { now, reader }) => {
      // a bare day is its end: "until Friday"
      const d = parseWhen(t, now, reader.zone, { dayEnd: true });
      return d && d.getTime() > now.getTime()
        ? { expires_at: d.toISOString() }
        : bad("invite-refuse-expiry", { when: whenExamples(reader, now) });
    },
    clear: { expires_at: null },
  },
  {
    label: "invite-option-member-limit",
    prompt: "invite-prompt-member-limit",
    parse: (t) => (/^\d{1,6}$/.test(t.trim()) ? { member_limit: Number(t.trim()) } : bad("invite-refuse-member-limit")),
    clear: { member_limit: null },
    only: "open",
  },
  {
    label: "invite-option-welcome",
    prompt: "invite-prompt-welcome",
    parse: (t) => ({ welcome: t }),
    clear: { welcome: null },
    only: "requests",
  },
  {
    label: "invite-option-approval",
    prompt: "invite-prompt-approval",
    parse: (t) => readApproval(t) ?? bad("invite-refuse-approval"),
    choices: {
      buttons: [
        ["invite-approval-auto", { approve: "auto" }],
        ["invite-approval-manual", { approve: "manual" }],
      ],
      read: readApproval,
    },
    only: "requests",
  },
];
