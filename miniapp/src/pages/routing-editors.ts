/** The link form's editors of redirect rules and A/B variants, and their conversion to and from the API's shape. */
import type { LinkDetails } from "../../../api/links/model";
import { fromLocalInput, toLocalInput } from "../form";
import { html, inputValue } from "../ui";
import { t } from "../i18n";

const OS = ["iOS", "Android", "Windows", "macOS", "Linux"] as const;
const DEVICES = ["mobile", "tablet", "desktop"] as const;

/** A redirect rule and an A/B variant as the API stores them. */
type Rule = LinkDetails["rules"][number];
type Variant = LinkDetails["variants"][number];
type Os = NonNullable<Rule["if"]["os"]>[number];
type Device = NonNullable<Rule["if"]["device"]>[number];
const isOs = (v: string): v is Os => (OS as readonly string[]).includes(v);
const isDevice = (v: string): v is Device => (DEVICES as readonly string[]).includes(v);
const MAX_RULES = 20;
const MAX_VARIANTS = 10;

/** One rule as the form edits it: lists as comma-separated text, the query as `k=v&k2=v2`. */
export interface RuleRow {
  country: string;
  language: string;
  os: string[];
  device: string[];
  from: string;
  to: string;
  query: string;
  url: string;
}
export interface VariantRow {
  url: string;
  weight: string;
}

const emptyRule = (): RuleRow => ({ country: "", language: "", os: [], device: [], from: "", to: "", query: "", url: "" });
const words = (s: string) => s.split(/[\s,]+/).filter(Boolean);

/** Rows from a link's stored rules. */
export function ruleRows(rules: LinkDetails["rules"] | undefined): RuleRow[] {
  return (rules ?? []).map((r) => ({
    country: (r.if.country ?? []).join(", "),
    language: (r.if.language ?? []).join(", "),
    os: r.if.os ?? [],
    device: r.if.device ?? [],
    from: toLocalInput(r.if.from),
    to: toLocalInput(r.if.to),
    query: r.if.query ? new URLSearchParams(r.if.query).toString() : "",
    url: r.url,
  }));
}

/** The API's `rules` from the rows (empty conditions left out; the server checks the rest). */
export function rulesBody(rows: RuleRow[]): Rule[] {
  return rows.map((r) => {
    const c: Rule["if"] = {};
    if (words(r.country).length) c.country = words(r.country);
    if (words(r.language).length) c.language = words(r.language);
    if (r.os.length) c.os = r.os.filter(isOs);
    if (r.device.length) c.device = r.device.filter(isDevice);
    if (r.from) c.from = fromLocalInput(r.from) ?? undefined; // a datetime-local value always reads
    if (r.to) c.to = fromLocalInput(r.to) ?? undefined;
    if (r.query.trim()) c.query = Object.fromEntries(new URLSearchParams(r.query.trim().replace(/^\?/, "")));
    return { if: c, url: r.url.trim() };
  });
}

export const variantRows = (variants: LinkDetails["variants"] | undefined): VariantRow[] =>
  (variants ?? []).map((v) => ({ url: v.url, weight: String(v.weight) }));
export const variantsBody = (rows: VariantRow[]): Variant[] => rows.map((v) => ({ url: v.url.trim(), weight: Number(v.weight) }));

/** `list` with item `i` replaced, moved by `by`, or removed. */
const replaced = <T>(list: T[], i: number, item: T) => list.map((x, j) => (j === i ? item : x));
function moved<T>(list: T[], i: number, by: number): T[] {
  const out = [...list];
  const [item] = out.splice(i, 1);
  out.splice(i + by, 0, item!);
  return out;
}
const removed = <T>(list: T[], i: number) => list.filter((_, j) => j !== i);
const toggled = (list: string[], v: string) => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

/** Ordered rules, first match wins: conditions, target, move up and down, remove, add (at most 20). */
export function RulesEditor({ rows, onChange }: { rows: RuleRow[]; onChange: (rows: RuleRow[]) => void }) {
  const edit = <K extends keyof RuleRow>(i: number, k: K, v: RuleRow[K]) => onChange(replaced(rows, i, { ...rows[i]!, [k]: v }));
  const text = (
    i: number,
    k: keyof RuleRow,
    label: string,
    placeholder = "",
    type = "text",
  ) => html`<label class="field"><span class="label">${label}</span>
    <input type=${type} aria-label=${t("app-rule-field", { n: i + 1, field: label })} placeholder=${placeholder} value=${rows[i]![k]} onInput=${(e: Event) => edit(i, k, inputValue(e))} /></label>`;
  const chips = (
    i: number,
    k: "os" | "device",
    values: readonly string[],
    label: string,
    name: (v: string) => string = (v) => v,
  ) => html`<div class="field"><span class="label">${label}</span>
    <div class="chips" role="group" aria-label=${t("app-rule-field", { n: i + 1, field: label })}>${values.map(
      (v) => html`<button type="button" class=${rows[i]![k].includes(v) ? "chip on" : "chip"}
      aria-pressed=${rows[i]![k].includes(v)} onClick=${() => edit(i, k, toggled(rows[i]![k], v))}>${name(v)}</button>`,
    )}</div></div>`;
  return html`<div class="rules-editor">
    <p class="hint">${t("app-rules-hint")}</p>
    ${rows.map(
      (_, i) => html`<fieldset class="rule card" data-rule=${i}>
      <legend>${t("app-rule", { n: i + 1 })}</legend>
      ${text(i, "country", t("app-rule-countries"), "DE, AT")}
      ${text(i, "language", t("app-rule-languages"), "de, fr")}
      ${chips(i, "os", OS, t("app-devices-os"))}
      ${chips(i, "device", DEVICES, t("app-devices-devices"), (d) => t(`app-device-${d}`))}
      ${text(i, "from", t("app-rule-from"), "", "datetime-local")}
      ${text(i, "to", t("app-rule-until"), "", "datetime-local")}
      ${text(i, "query", t("app-rule-query"), "src=mail&v=2")}
      ${text(i, "url", t("app-rule-url"), "https://…", "url")}
      <div class="inline">
        <button type="button" class="btn small" aria-label=${t("app-rule-up", { n: i + 1 })} disabled=${i === 0} onClick=${() => onChange(moved(rows, i, -1))}>↑</button>
        <button type="button" class="btn small" aria-label=${t("app-rule-down", { n: i + 1 })} disabled=${i === rows.length - 1} onClick=${() => onChange(moved(rows, i, 1))}>↓</button>
        <button type="button" class="btn small danger" onClick=${() => onChange(removed(rows, i))}>${t("app-rule-remove", { n: i + 1 })}</button>
      </div>
    </fieldset>`,
    )}
    <button type="button" class="btn small" disabled=${rows.length >= MAX_RULES} onClick=${() => onChange([...rows, emptyRule()])}>${t("app-rule-add")}</button>
  </div>`;
}

/** The A/B split: 2–10 URLs with weights; the share of each is shown as the weights change. */
export function VariantsEditor({
  rows,
  onChange,
  linkUrl,
}: {
  rows: VariantRow[];
  onChange: (rows: VariantRow[]) => void;
  linkUrl: string;
}) {
  const total = rows.reduce((s, r) => s + (Number(r.weight) || 0), 0);
  const edit = (i: number, k: keyof VariantRow, v: string) => onChange(replaced(rows, i, { ...rows[i]!, [k]: v }));
  // starting a split puts the link's own URL in as the first variant, so one more URL makes an A/B test
  const add = () =>
    onChange(
      rows.length
        ? [...rows, { url: "", weight: "50" }]
        : [
            { url: linkUrl, weight: "50" },
            { url: "", weight: "50" },
          ],
    );
  return html`<div class="variants-editor">
    <p class="hint">${t("app-variants-hint")}</p>
    ${rows.map(
      (r, i) => html`<div class="variant inline" data-variant=${i}>
      <span class="label">${String.fromCharCode(65 + i)}</span>
      <input type="url" aria-label=${t("app-variant-url", { n: i + 1 })} placeholder="https://…" value=${r.url} onInput=${(e: Event) => edit(i, "url", inputValue(e))} />
      <input type="number" min="1" max="100" class="weight" aria-label=${t("app-variant-weight", { n: i + 1 })} value=${r.weight} onInput=${(e: Event) => edit(i, "weight", inputValue(e))} />
      <small class="hint share">${total ? Math.round(((Number(r.weight) || 0) * 100) / total) : 0}%</small>
      <button type="button" class="btn small danger" onClick=${() => onChange(rows.length <= 2 ? [] : removed(rows, i))}>${rows.length <= 2 ? t("app-variants-end") : t("app-variant-remove", { n: i + 1 })}</button>
    </div>`,
    )}
    <button type="button" class="btn small" disabled=${rows.length >= MAX_VARIANTS} onClick=${add}>${rows.length ? t("app-variant-add") : t("app-variants-start")}</button>
  </div>`;
}
