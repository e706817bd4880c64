/**
 * A secure share link's options, one row each (like the link card's): the button, the screen's line
 * while the option is in force, and either a question whose one answer is saved through core (the
 * same validation as PATCH /api/secure/links/:id) or a change on tap. New options are new rows.
 */
import type { Deps } from "../../core/deps";
import { updateLink, type LinkJson } from "../../core/secure/links";
import { sharePasswordHash } from "../../core/secure/share-password";

export interface ShareOption {
  label: (link: LinkJson) => string;
  line: (link: LinkJson) => string | null;
  ask?: { prompt: string; save: (deps: Deps, userId: number, id: number, answer: string | null) => Promise<unknown>; secret?: boolean };
  tap?: (deps: Deps, userId: number, link: LinkJson) => unknown;
}

export const SHARE_OPTIONS: ShareOption[] = [
  {
    label: (l) => (l.hasPassword ? "🔒 Change password" : "🔒 Set password"),
    line: (l) => (l.hasPassword ? "🔒 Opening needs a password" : null),
    ask: {
      prompt: "Send the password viewers must enter (4 to 128 characters; I delete your message at once).",
      save: async (deps, userId, id, answer) => updateLink(deps, userId, id, { passwordHash: await sharePasswordHash(answer) }),
      secret: true,
    },
  },
  {
    label: (l) => (l.notifyOnView ? "🔕 Stop view messages" : "🔔 Tell me of each view"),
    line: (l) => (l.notifyOnView ? "🔔 You get a message for each view" : null),
    tap: (deps, userId, l) => updateLink(deps, userId, l.id, { notifyOnView: !l.notifyOnView }),
  },
];
