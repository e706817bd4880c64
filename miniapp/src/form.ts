/** Form helpers: controlled field state, labelled inputs, date conversion, diffing for PATCH. */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { html, inputValue, inputChecked } from "./ui";
import { timeZone } from "./i18n";
import { offsetAt } from "../../core/clock";

/** A request body built from a form: field name → value. */
export type Values = Record<string, unknown>;

/**
 * A form's state over its values `V` (each field typed). `bind` ties a text input or a select to a field
 * and `pick` a select's change: the control holds one of the field's values as text (a select offers
 * only the field's values), which is what the field stores; `check` ties a checkbox to a boolean field.
 */
export function useForm<V extends object>(initial: V) {
  const [values, setValues] = useState<V>(initial);
  const set = <K extends keyof V>(k: K, v: V[K]) => setValues((s) => ({ ...s, [k]: v }));
  const pick =
    <K extends keyof V & string>(k: K) =>
    (e: Event) =>
      set(k, inputValue(e) as V[K]);
  const bind = <K extends keyof V & string>(k: K) => ({ name: k, value: values[k] ?? "", onInput: pick(k) });
  const check = <K extends keyof V & string>(k: K) => ({
    name: k,
    checked: Boolean(values[k]),
    onChange: (e: Event) => set(k, inputChecked(e) as V[K]),
  });
  return { values, set, pick, bind, check, reset: setValues };
}

/** ISO → value of <input type="datetime-local"> on the wall clock of the account's time zone (Settings). */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return "";
  const ms = new Date(iso).getTime();
  return new Date(ms + offsetAt(timeZone(), ms)).toISOString().slice(0, 16);
}

/** datetime-local value, read on the wall clock of the account's time zone → ISO UTC, or null when empty. */
export function fromLocalInput(v: string): string | null {
  if (!v) return null;
  const wall = Date.parse(`${v}Z`);
  if (Number.isNaN(wall)) return null;
  const zone = timeZone();
  // the offset at the wall time, then at the moment it gives (right across a daylight-saving change)
  const at = wall - offsetAt(zone, wall);
  return new Date(wall - offsetAt(zone, at)).toISOString();
}

/** Only the keys whose value differs from `before` (for PATCH); unchanged keys are left out. */
export function changed<V extends Values>(before: V, after: V): Partial<V> {
  const out: Values = {};
  for (const [k, v] of Object.entries(after)) if (JSON.stringify(v ?? null) !== JSON.stringify(before[k] ?? null)) out[k] = v;
  return out as Partial<V>;
}

/** Drops null/empty entries (for create bodies). */
export function compact<V extends Values>(v: V): Partial<V> {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== "" && !(Array.isArray(x) && !x.length))) as Partial<V>;
}

/** A labelled input; `group` for several controls (a <label> would forward clicks to the first one). */
export function Field({ label, hint, group, children }: { label: string; hint?: string; group?: boolean; children: ComponentChildren }) {
  const inner = html`<span class="label">${label}</span>${children}${hint && html`<small class="hint">${hint}</small>`}`;
  return group ? html`<div class="field">${inner}</div>` : html`<label class="field">${inner}</label>`;
}

export function Section({ title, children, open = false }: { title: string; children: ComponentChildren; open?: boolean }) {
  return html`<details class="form-section" open=${open}><summary>${title}</summary><div class="section-body">${children}</div></details>`;
}

/** Multi-select as toggle chips. */
export function ChipSelect({
  items,
  selected,
  onChange,
  label,
}: {
  items: { id: number; name: string }[];
  selected: number[];
  onChange: (ids: number[]) => void;
  label: string;
}) {
  const toggle = (id: number) => onChange(selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id]);
  return html`<div class="chips" role="group" aria-label=${label}>
    ${items.map(
      (i) => html`<button type="button" class=${selected.includes(i.id) ? "chip on" : "chip"} aria-pressed=${selected.includes(i.id)}
      onClick=${() => toggle(i.id)}>${i.name}</button>`,
    )}
  </div>`;
}
