/**
 * A secure share link's options, one row each (like the link card's): the button, the screen's line
 * while the option is in force, and either a question whose one answer is saved through core (the
 * same validation as PATCH /api/secure/links/:id) or a change on tap. New options are new rows.
 */
import type { BotContext } from "../context";
import { write } from "../audited";
import { updateShareLink, type ShareLinkJson } from "../../core/secure/share-links";
import { sharePasswordHash } from "../../core/secure/share-password";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../core/links/password";

/** Labels, lines and prompts are translation keys. */
export interface ShareOption {
  /** a switch's label says its state ("✅ View messages: on"); a tap flips it */
  label: (link: ShareLinkJson) => string;
  line: (link: ShareLinkJson) => string | null;
  /** `vars`: the limits the question states, taken from where core checks them */
  ask?: {
    prompt: string;
    vars?: Record<string, number>;
    save: (ctx: BotContext, id: number, answer: string | null) => Promise<unknown>;
    secret?: boolean;
  };
  tap?: (ctx: BotContext, link: ShareLinkJson) => unknown;
}

export const SHARE_OPTIONS: ShareOption[] = [
  {
    label: (l) => (l.hasPassword ? "share-option-password-change" : "share-option-password-set"),
    line: (l) => (l.hasPassword ? "share-line-password" : null),
    ask: {
      prompt: "share-prompt-password",
      vars: { min: PASSWORD_MIN, max: PASSWORD_MAX },
      save: async (ctx, id, answer) => write(ctx, updateShareLink, id, { passwordHash: await sharePasswordHash(answer) }),
      secret: true,
    },
  },
  {
    label: (l) => (l.notifyOnView ? "share-option-views-on" : "share-option-views-off"),
    line: (l) => (l.notifyOnView ? "share-line-views" : null),
    tap: (ctx, l) => write(ctx, updateShareLink, l.id, { notifyOnView: !l.notifyOnView }),
  },
];
