/**
 * The link card's options, one row each: the button, the line the card shows while the option is in
 * force, and either the question the bot asks (one answer, turned into the same input the API takes
 * and validated by the same core function) or an instant change on tap. New options are new rows.
 */
import type { Deps } from "../../core/deps";
import type { LinkInput } from "../../core/links/validate";
import type { LinkDetails } from "../../core/links/views";
import { parseWhen, whenExamples } from "../../core/links/when";
import { createTag, listTags } from "../../core/catalog/tags";
import { listPixels } from "../../core/catalog/pixels";
import { listDomains } from "../../core/catalog/domains";
import { ValidationError } from "../../core/errors";
import { ROUTING_OPTIONS } from "./routing-options";

/** What an option's parser and card line may look at. */
export interface OptionEnv {
  deps: Deps;
  userId: number;
  now: Date;
  link: LinkDetails;
  /** tag ids a parser created, taken back when the link is not saved */
  madeTags: number[];
}

export interface LinkOption {
  /** the button on the card (a translation key) */
  label: string;
  /** the card's line while the option is in force (null: not shown) */
  line: (link: LinkDetails, env: Pick<OptionEnv, "deps" | "userId">) => string | null | Promise<string | null>;
  /** a question answered with one message; /clear sends `clear` */
  ask?: {
    prompt: string;
    /** the answer as API input; throws ValidationError for an answer it cannot read */
    parse: (text: string, env: OptionEnv) => LinkInput | Promise<LinkInput>;
    /** what /clear sends; absent when the option cannot be removed (the target URL) */
    clear?: LinkInput;
    /** the answer is deleted from the chat (passwords) */
    secret?: boolean;
  };
  /** a change made on tap, without a question */
  tap?: (link: LinkDetails) => LinkInput;
}

const esc = (s: string) => Bun.escapeHTML(s);
const day = (iso: string) => iso.replace("T", " ").slice(0, 16) + " UTC";
/** In a prompt, `{when}` becomes examples computed from today (bot/conversations/option-answer.ts promptOf). */
const WHEN_HELP = "Examples: {when}.";

function bad(message: string): never {
  throw new ValidationError(message);
}

function when(text: string, now: Date): string {
  const d = parseWhen(text, now);
  if (!d) bad(`I could not read that time. Examples: ${whenExamples(now)}.`);
  if (d.getTime() <= now.getTime()) bad(`That time has passed. Examples: ${whenExamples(now)}.`);
  return d.toISOString();
}

const names = (text: string) => text.split(",").map((s) => s.trim()).filter(Boolean);

/** The card's option rows, in button order. */
export const LINK_OPTIONS: LinkOption[] = [
  {
    label: "link-option-title",
    line: () => null, // the card is headed by the title
    ask: { prompt: "Send the link's title (at most 200 characters).", parse: (t) => ({ title: t }), clear: { title: null } },
  },
  {
    label: "link-option-target",
    line: () => null,
    ask: { prompt: "Send the new target URL (http:// or https://).", parse: (t) => ({ url: t }) },
  },
  {
    label: "link-option-start",
    line: (l) => (l.starts_at ? `⏳ Starts ${day(l.starts_at)} (a countdown shows until then)` : null),
    ask: { prompt: `When should the link start working? ${WHEN_HELP}`, parse: (t, e) => ({ starts_at: when(t, e.now) }), clear: { starts_at: null } },
  },
  {
    label: "link-option-expiry",
    line: (l) => (l.expires_at ? `⌛️ Expires ${day(l.expires_at)}` : null),
    ask: { prompt: `When should the link expire? ${WHEN_HELP}`, parse: (t, e) => ({ expires_at: when(t, e.now) }), clear: { expires_at: null } },
  },
  {
    label: "link-option-after-expiry",
    line: (l) => (l.expired_url ? `↪️ After expiry or the click cap: ${esc(l.expired_url)}` : null),
    ask: { prompt: "Where should visitors go once the link has expired or reached its click cap? Send a URL.", parse: (t) => ({ expired_url: t }), clear: { expired_url: null } },
  },
  {
    label: "link-option-click-cap",
    line: (l) => (l.max_clicks !== null ? `🔢 Stops after ${l.max_clicks} clicks` : null),
    ask: {
      prompt: "After how many visitors should the link stop? Send a whole number.",
      parse: (t) => (/^\d{1,12}$/.test(t) ? { max_clicks: Number(t) } : bad("Send a whole number greater than 0.")),
      clear: { max_clicks: null },
    },
  },
  {
    label: "link-option-password",
    line: (l) => (l.has_password ? "🔒 Visitors must enter a password" : null),
    ask: { prompt: "Send the password visitors must enter (I delete your message at once).", parse: (t) => ({ password: t }), clear: { password: null }, secret: true },
  },
  {
    label: "link-option-ios",
    line: (l) => (l.ios_url ? `🍏 iPhone and iPad → ${esc(l.ios_url)}` : null),
    ask: { prompt: "Where should iPhone and iPad visitors go? Send a URL.", parse: (t) => ({ ios_url: t }), clear: { ios_url: null } },
  },
  {
    label: "link-option-android",
    line: (l) => (l.android_url ? `🤖 Android → ${esc(l.android_url)}` : null),
    ask: { prompt: "Where should Android visitors go? Send a URL.", parse: (t) => ({ android_url: t }), clear: { android_url: null } },
  },
  {
    label: "link-option-desktop",
    line: (l) => (l.desktop_url ? `🖥 Desktop → ${esc(l.desktop_url)}` : null),
    ask: { prompt: "Where should desktop visitors go? Send a URL.", parse: (t) => ({ desktop_url: t }), clear: { desktop_url: null } },
  },
  {
    label: "link-option-utm",
    line: (l) => {
      const parts = [["source", l.utm_source], ["medium", l.utm_medium], ["campaign", l.utm_campaign]].filter(([, v]) => v);
      return parts.length ? `📣 UTM ${parts.map(([k, v]) => `${k}=${esc(v!)}`).join(", ")} (added to the target)` : null;
    },
    ask: {
      prompt: "Send UTM source, medium and campaign separated by commas, e.g. “telegram, post, spring”. Leave a place empty to skip it: “telegram,,spring”.",
      parse: (t) => {
        const [s, m, c, ...rest] = t.split(",").map((x) => x.trim());
        if (rest.length) bad("Send at most three values: source, medium, campaign.");
        return { utm_source: s || null, utm_medium: m || null, utm_campaign: c || null };
      },
      clear: { utm_source: null, utm_medium: null, utm_campaign: null },
    },
  },
  {
    label: "link-option-pixels",
    line: async (l, e) => {
      if (!l.pixelIds.length) return null;
      const byId = new Map((await listPixels(e.deps, e.userId)).map((p) => [p.id, p]));
      return `📡 Pixels: ${l.pixelIds.map((id) => esc(byId.get(id)?.name ?? "?")).join(", ")}`;
    },
    ask: {
      prompt: "Send the names of your pixels to fire on this link, separated by commas (add pixels in ⚙️ Settings → Pixels).",
      parse: async (t, e) => {
        const all = await listPixels(e.deps, e.userId);
        const ids = names(t).map((n) => all.find((p) => p.name.toLowerCase() === n.toLowerCase())?.id ?? bad(`You have no pixel named “${n}”. Yours: ${all.map((p) => p.name).join(", ") || "none yet"}.`));
        return { pixelIds: ids };
      },
      clear: { pixelIds: [] },
    },
  },
  {
    label: "link-option-tags",
    line: async (l, e) => {
      if (!l.tagIds.length) return null;
      const byId = new Map((await listTags(e.deps, e.userId)).map((t) => [t.id, t.name]));
      return `🏷 ${l.tagIds.map((id) => esc(byId.get(id) ?? "?")).join(", ")}`;
    },
    ask: {
      prompt: "Send tags separated by commas (new ones are created). They replace the link's tags.",
      parse: async (t, e) => {
        const list = names(t);
        if (!list.length || list.some((n) => n.length > 50)) bad("Send names of at most 50 characters, separated by commas.");
        const existing = new Map((await listTags(e.deps, e.userId)).map((x) => [x.name.toLowerCase(), x.id]));
        const tagIds: number[] = [];
        for (const n of list) {
          const key = n.toLowerCase(); // the same name twice in one answer is one tag
          if (!existing.has(key)) {
            const id = (await createTag(e.deps, e.userId, n)).id;
            e.madeTags.push(id);
            existing.set(key, id);
          }
          tagIds.push(existing.get(key)!);
        }
        return { tagIds };
      },
      clear: { tagIds: [] },
    },
  },
  {
    label: "link-option-domain",
    line: (l) => (l.domain_id ? `🌐 On your domain ${esc(new URL(l.trackingUrl).host)}` : null),
    ask: {
      prompt: "Send the custom domain this link should use (add domains in the app first).",
      parse: async (t, e) => {
        const host = t.trim().toLowerCase().replace(/^https?:\/\//, "").replace(/\/.*$/, "");
        const all = await listDomains(e.deps, e.userId);
        const d = all.find((x) => x.hostname === host) ?? bad(`You have no domain “${host}”. Yours: ${all.map((x) => x.hostname).join(", ") || "none yet"}.`);
        return { domain_id: d.id };
      },
      clear: { domain_id: null },
    },
  },
  {
    label: "link-option-webhook",
    line: (l) => (l.webhook_url ? `🔔 Webhook ${l.webhook_method} ${esc(l.webhook_url)} (${l.webhook_enabled ? "on" : "off"})` : null),
    ask: {
      prompt: "Send the URL to notify on every click, optionally followed by GET or POST (default POST), e.g. “https://example.com/hook POST”. It must answer 2xx to a test request.",
      parse: (t) => {
        const m = /^(\S+)(?:\s+(GET|POST))?$/i.exec(t.trim()) ?? bad("Send a URL, optionally followed by GET or POST.");
        return { webhook_url: m[1]!, ...(m[2] ? { webhook_method: m[2].toUpperCase() as "GET" | "POST" } : {}) };
      },
      clear: { webhook_url: null },
    },
  },
  ...ROUTING_OPTIONS,
  {
    label: "link-option-on-off",
    line: () => null,
    tap: (l) => ({ is_active: !l.is_active }),
  },
];
