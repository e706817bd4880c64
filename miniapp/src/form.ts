/** Form helpers: controlled field state, labelled inputs, date conversion, diffing for PATCH. */
import { useState } from "preact/hooks";
import { html } from "./ui";
import { timeZone } from "./i18n";
import { offsetAt } from "../../core/clock";

export type Values = Record<string, any>;

export function useForm(initial: Values) {
  const [values, setValues] = useState<Values>(initial);
  const set = (k: string, v: any) => setValues((s) => ({ ...s, [k]: v }));
  const bind = (k: string) => ({
    name: k,
    value: values[k] ?? "",
    onInput: (e: any) => set(k, e.currentTarget.value),
  });
  const check = (k: string) => ({ name: k, checked: Boolean(values[k]), onChange: (e: any) => set(k, e.currentTarget.checked) });
  return { values, set, bind, check, reset: setValues };
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
export function changed(before: Values, after: Values): Values {
  const out: Values = {};
  for (const [k, v] of Object.entries(after)) if (JSON.stringify(v ?? null) !== JSON.stringify(before[k] ?? null)) out[k] = v;
  return out;
}

/** Drops null/empty entries (for create bodies). */
export function compact(v: Values): Values {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== "" && !(Array.isArray(x) && !x.length)));
}

/** A labelled input; `group` for several controls (a <label> would forward clicks to the first one). */
export function Field({ label, hint, group, children }: { label: string; hint?: string; group?: boolean; children: any }) {
  const inner = html`<span class="label">${label}</span>${children}${hint && html`<small class="hint">${hint}</small>`}`;
  return group ? html`<div class="field">${inner}</div>` : html`<label class="field">${inner}</label>`;
}

export function Section({ title, children, open = false }: { title: string; children: any; open?: boolean }) {
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
