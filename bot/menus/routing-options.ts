/**
 * The link card's rows for redirect rules and the A/B split. Each is one question whose typed answer
 * adds, removes or moves one entry (core's ruleEdits / variantEdits turn it into the new list), and
 * the list is saved through the same validation as the API's `rules` and `variants`.
 */
import { parseWhen } from "../../core/links/when";
import { cellAt } from "../../core/i18n/wall";
import { t } from "../../core/i18n/translate";
import { RULE_DEVICES, RULE_OS, type Rule, type RuleConditions, type Variant } from "../../core/links/routing-input";
import { ruleEdits, variantEdits } from "../../core/links/routing-edit";
import { Refusal } from "../problem";
import type { LinkOption } from "./link-options";

const esc = (s: string) => Bun.escapeHTML(s);
const bad = (key: string, vars?: Record<string, string>): never => {
  throw new Refusal(key, vars);
};
const list = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
/** The list commands, typed in English or Russian: `remove 2`/`убрать 2`, `move 3 1`/`переместить 3 1`, `weight 2 70`/`вес 2 70`. */
const REMOVE = /^(?:remove|delete|убрать|удалить)\s+(\d+)$/i;
const MOVE = /^(?:move|переместить|сдвинуть)\s+(\d+)\s+(\d+)$/i;
const WEIGHT = /^(?:weight|вес)\s+(\d+)\s+(\d+)$/i;

/** `2` in the chat is entry 2 of the card's numbered list: index 1. */
const position = (n: string) => Number(n) - 1;

/** One rule's conditions and URL as the card shows them: `country DE, AT · language de → https://…`. */
function ruleText(r: Rule, zone: string): string {
  const at = (iso: string) => cellAt(zone, new Date(iso)).slice(0, 16);
  const c = r.if;
  const parts = [
    c.country && `country ${c.country.join(", ")}`,
    c.language && `language ${c.language.join(", ")}`,
    c.os && `os ${c.os.join(", ")}`,
    c.device && `device ${c.device.join(", ")}`,
    c.from && `from ${at(c.from)}`,
    c.to && `until ${at(c.to)}`,
    ...Object.entries(c.query ?? {}).map(([k, v]) => `?${k}=${v}`),
  ].filter(Boolean);
  return `${parts.join(" · ") || "always"} → ${r.url}`;
}

const canonical = <T extends string>(names: readonly T[], value: string, what: string): T =>
  names.find((n) => n.toLowerCase() === value.toLowerCase()) ??
  bad(what === "os" ? "rule-refuse-os" : "rule-refuse-device", { value, names: names.join(", ") });

/** Reads `country=DE,AT language=de os=iOS device=mobile from=… to=… q.src=mail → https://…`. */
function readRule(text: string, now: Date, zone: string): Rule {
  const m = /^(.*?)\s*(?:→|->)\s*(\S+)\s*$/.exec(text) ?? bad("rule-refuse-shape");
  const c: RuleConditions = {};
  for (const token of m[1]!.split(/\s+/).filter(Boolean)) {
    const [key = "", value = ""] = token.split(/=(.*)/s);
    if (!value) bad("rule-refuse-token", { token });
    const k = key.toLowerCase();
    if (k === "country") c.country = list(value).map((x) => x.toUpperCase());
    else if (k === "language" || k === "lang") c.language = list(value).map((x) => x.toLowerCase());
    else if (k === "os") c.os = list(value).map((x) => canonical(RULE_OS, x, "os"));
    else if (k === "device") c.device = list(value).map((x) => canonical(RULE_DEVICES, x, "device"));
    else if (k === "from" || k === "to") c[k] = (parseWhen(value, now, zone) ?? bad("rule-refuse-time", { value })).toISOString();
    else if (k.startsWith("q.") && k.length > 2) c.query = { ...c.query, [key.slice(2)]: value };
    else bad("rule-refuse-key", { key });
  }
  return { if: c, url: m[2]! };
}

export const ROUTING_OPTIONS: LinkOption[] = [
  {
    label: "link-option-rules",
    line: (l, e) =>
      l.rules.length
        ? { key: "rule-line", vars: { rules: l.rules.map((r, i) => `  ${i + 1}. ${esc(ruleText(r, e.reader.zone))}`).join("\n") } }
        : null,
    ask: {
      prompt: "link-prompt-rules",
      parse: (text, env) => {
        const rules = env.link.rules;
        const typed = text.trim();
        let m: RegExpExecArray | null;
        if ((m = REMOVE.exec(typed))) return { rules: ruleEdits.remove(rules, position(m[1]!)) };
        if ((m = MOVE.exec(typed))) return { rules: ruleEdits.move(rules, position(m[1]!), position(m[2]!)) };
        return { rules: ruleEdits.add(rules, readRule(typed, env.now, env.reader.zone)) };
      },
      clear: { rules: null },
    },
  },
  {
    label: "link-option-ab",
    line: (l, e) => {
      if (!l.variants.length) return null;
      const total = l.variants.reduce((s, v) => s + v.weight, 0);
      return {
        key: "ab-line",
        vars: {
          variants: l.variants
            .map(
              (v: Variant, i) =>
                `  ${t(e.reader.language, "ab-variant", { n: i + 1, url: esc(v.url), weight: v.weight, share: Math.round((v.weight / total) * 100) })}`,
            )
            .join("\n"),
        },
      };
    },
    ask: {
      prompt: "link-prompt-ab",
      parse: (text, env) => {
        const { variants, original_url } = env.link;
        const typed = text.trim();
        let m: RegExpExecArray | null;
        if ((m = REMOVE.exec(typed))) return { variants: variantEdits.remove(variants, position(m[1]!)) };
        if ((m = MOVE.exec(typed))) return { variants: variantEdits.move(variants, position(m[1]!), position(m[2]!)) };
        if ((m = WEIGHT.exec(typed))) return { variants: variantEdits.weight(variants, position(m[1]!), Number(m[2])) };
        m = /^(\S+)\s+(\d{1,3})$/.exec(typed) ?? bad("ab-refuse-shape");
        return { variants: variantEdits.add(original_url, variants, { url: m[1]!, weight: Number(m[2]) }) };
      },
      clear: { variants: null },
    },
  },
];
