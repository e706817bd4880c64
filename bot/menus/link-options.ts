/**
 * The link card's options, one row each: the button, the line the card shows while the option is in
 * force, and either the question the bot asks (one answer, turned into the same input the API takes
 * and validated by the same core function) or an instant change on tap. New options are new rows.
 */
import type { Deps } from "../../core/deps";
import type { LinkInput } from "../../core/links/validate";
import type { LinkDetails } from "../../core/links/views";
import { parseWhen } from "../../core/links/when";
import { shownAt, whenExamples, type Reader } from "../../core/i18n/wall";
import { createTag, listTags } from "../../core/catalog/tags";
import { listPixels } from "../../core/catalog/pixels";
import { listDomains } from "../../core/catalog/domains";
import { Refusal } from "../problem";
import type { BotContext } from "../context";
import { write } from "../audited";
import type { Said } from "../i18n";
import { ROUTING_OPTIONS } from "./routing-options";

/** What an option's parser and card line may look at. */
export interface OptionEnv {
  deps: Deps;
  userId: number;
  now: Date;
  /** the user's language and time zone: times typed are read and shown in it */
  reader: Reader;
  link: LinkDetails;
  /** tag ids a parser created, taken back when the link is not saved */
  madeTags: number[];
  /** the person writing, for the audit log of tags an answer makes */
  by: BotContext;
}

export interface LinkOption {
  /** the button on the card (a translation key) */
  label: string;
  /** the card's line while the option is in force (null: not shown) */
  line: (link: LinkDetails, env: Pick<OptionEnv, "deps" | "userId" | "reader">) => Said | string | null | Promise<Said | string | null>;
  /** a question answered with one message; /clear sends `clear` */
  ask?: {
    /** the question (a translation key; `{ $when }` gets examples of times from today) */
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

function bad(key: string, vars?: Record<string, string>): never {
  throw new Refusal(key, vars);
}

/** A time typed in the user's zone; a bare day as an expiry is its end ("until Friday"). */
function when(text: string, { now, reader }: Pick<OptionEnv, "now" | "reader">, dayEnd = false): string {
  const d = parseWhen(text, now, reader.zone, { dayEnd });
  if (!d) bad("link-refuse-time", { when: whenExamples(reader, now) });
  if (d.getTime() <= now.getTime()) bad("link-refuse-past", { when: whenExamples(reader, now) });
  return d.toISOString();
}

const names = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** The card's option rows, in button order. */
export const LINK_OPTIONS: LinkOption[] = [
  {
    label: "link-option-title",
    line: () => null, // the card is headed by the title
    ask: { prompt: "link-prompt-title", parse: (t) => ({ title: t }), clear: { title: null } },
  },
  {
    label: "link-option-target",
    line: () => null,
    ask: { prompt: "link-prompt-target", parse: (t) => ({ url: t }) },
  },
  {
    label: "link-option-start",
    line: (l, e) => (l.starts_at ? { key: "link-line-start", vars: { date: shownAt(e.reader, l.starts_at) } } : null),
    ask: { prompt: "link-prompt-start", parse: (t, e) => ({ starts_at: when(t, e) }), clear: { starts_at: null } },
  },
  {
    label: "link-option-expiry",
    line: (l, e) => (l.expires_at ? { key: "link-line-expiry", vars: { date: shownAt(e.reader, l.expires_at) } } : null),
    ask: { prompt: "link-prompt-expiry", parse: (t, e) => ({ expires_at: when(t, e, true) }), clear: { expires_at: null } },
  },
  {
    label: "link-option-after-expiry",
    line: (l) => (l.expired_url ? { key: "link-line-after-expiry", vars: { url: esc(l.expired_url) } } : null),
    ask: { prompt: "link-prompt-after-expiry", parse: (t) => ({ expired_url: t }), clear: { expired_url: null } },
  },
  {
    label: "link-option-click-cap",
    line: (l) => (l.max_clicks !== null ? { key: "link-line-click-cap", vars: { count: l.max_clicks } } : null),
    ask: {
      prompt: "link-prompt-click-cap",
      parse: (t) => (/^\d{1,12}$/.test(t) ? { max_clicks: Number(t) } : bad("link-refuse-click-cap")),
      clear: { max_clicks: null },
    },
  },
  {
    label: "link-option-password",
    line: (l) => (l.has_password ? { key: "link-line-password" } : null),
    ask: { prompt: "link-prompt-password", parse: (t) => ({ password: t }), clear: { password: null }, secret: true },
  },
  {
    label: "link-option-ios",
    line: (l) => (l.ios_url ? { key: "link-line-ios", vars: { url: esc(l.ios_url) } } : null),
    ask: { prompt: "link-prompt-ios", parse: (t) => ({ ios_url: t }), clear: { ios_url: null } },
  },
  {
    label: "link-option-android",
    line: (l) => (l.android_url ? { key: "link-line-android", vars: { url: esc(l.android_url) } } : null),
    ask: { prompt: "link-prompt-android", parse: (t) => ({ android_url: t }), clear: { android_url: null } },
  },
  {
    label: "link-option-desktop",
    line: (l) => (l.desktop_url ? { key: "link-line-desktop", vars: { url: esc(l.desktop_url) } } : null),
    ask: { prompt: "link-prompt-desktop", parse: (t) => ({ desktop_url: t }), clear: { desktop_url: null } },
  },
  {
    label: "link-option-utm",
    line: (l) => {
      const parts = [
        ["source", l.utm_source],
        ["medium", l.utm_medium],
        ["campaign", l.utm_campaign],
      ].filter(([, v]) => v);
      return parts.length ? { key: "link-line-utm", vars: { utm: parts.map(([k, v]) => `${k}=${esc(v!)}`).join(", ") } } : null;
    },
    ask: {
      prompt: "link-prompt-utm",
      parse: (t) => {
        const [s, m, c, ...rest] = t.split(",").map((x) => x.trim());
        if (rest.length) bad("link-refuse-utm");
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
      return { key: "link-line-pixels", vars: { names: l.pixelIds.map((id) => esc(byId.get(id)?.name ?? "?")).join(", ") } };
    },
    ask: {
      prompt: "link-prompt-pixels",
      parse: async (t, e) => {
        const all = await listPixels(e.deps, e.userId);
        const ids = names(t).map(
          (n) =>
            all.find((p) => p.name.toLowerCase() === n.toLowerCase())?.id ??
            bad(all.length ? "link-refuse-pixel" : "link-refuse-pixel-none", { name: n, yours: all.map((p) => p.name).join(", ") }),
        );
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
      prompt: "link-prompt-tags",
      parse: async (t, e) => {
        const list = names(t);
        if (!list.length || list.some((n) => n.length > 50)) bad("link-refuse-tags");
        const existing = new Map((await listTags(e.deps, e.userId)).map((x) => [x.name.toLowerCase(), x.id]));
        const tagIds: number[] = [];
        for (const n of list) {
          const key = n.toLowerCase(); // the same name twice in one answer is one tag
          if (!existing.has(key)) {
            const id = (await write(e.by, createTag, n)).id;
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
    line: (l) => (l.domain_id ? { key: "link-line-domain", vars: { host: esc(new URL(l.trackingUrl).host) } } : null),
    ask: {
      prompt: "link-prompt-domain",
      parse: async (t, e) => {
        const host = t
          .trim()
          .toLowerCase()
          .replace(/^https?:\/\//, "")
          .replace(/\/.*$/, "");
        const all = await listDomains(e.deps, e.userId);
        const d =
          all.find((x) => x.hostname === host) ??
          bad(all.length ? "link-refuse-domain" : "link-refuse-domain-none", { host, yours: all.map((x) => x.hostname).join(", ") });
        return { domain_id: d.id };
      },
      clear: { domain_id: null },
    },
  },
  {
    label: "link-option-webhook",
    line: (l) =>
      l.webhook_url
        ? {
            key: l.webhook_enabled ? "link-line-webhook-on" : "link-line-webhook-off",
            vars: { method: l.webhook_method, url: esc(l.webhook_url) },
          }
        : null,
    ask: {
      prompt: "link-prompt-webhook",
      parse: (t) => {
        const m = /^(\S+)(?:\s+(GET|POST))?$/i.exec(t.trim()) ?? bad("link-refuse-webhook");
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
