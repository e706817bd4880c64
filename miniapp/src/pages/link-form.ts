/** Create or edit a tracking link with every option of the spec. */
import type { RefObject } from "preact";
import { useRef, useState } from "preact/hooks";
import { get, patch, post } from "../api";
import { ChipSelect, Field, Section, changed, compact, fromLocalInput, toLocalInput, useForm, type Values } from "../form";
import { navigate } from "../router";
import { useMainButton } from "../telegram";
import { Async, ErrorBox, errorText, html, toast, useAsync, useSubmit, type Submit } from "../ui";
import { RulesEditor, VariantsEditor, ruleRows, rulesBody, variantRows, variantsBody } from "./routing-editors";
import type { LinkDetails, Pixel, Tag } from "../../../api/links/model";

const TEXT = ["url", "title", "code", "utm_source", "utm_medium", "utm_campaign", "expired_url", "password",
  "ios_url", "android_url", "desktop_url", "webhook_url"] as const;

interface Extras {
  tags: Tag[];
  pixels: { id: number; name: string; type: string }[];
  domains: { id: number; hostname: string; verified: boolean }[];
  link: Values | null;
}

// the hyphen is escaped: browsers compile `pattern` with the v flag
const CODE_PATTERN = "[A-Za-z0-9_\\-]{3,64}";

const optional = <T>(p: Promise<T>, d: T) => p.catch(() => d);

export function LinkForm({ id }: { id?: string }) {
  const form = useRef<HTMLFormElement>(null);
  const submit = useSubmit();
  const state = useAsync<Extras>(async () => {
    const [tags, pixels, domains, link] = await Promise.all([
      optional(get<Tag[]>("/api/tags"), []),
      optional(get<Pixel[]>("/api/pixels"), []),
      optional(get("/api/domains"), []),
      id ? get<LinkDetails>(`/api/links/${id}`) : Promise.resolve(null),
    ]);
    return { tags, pixels, domains, link };
  }, [id]);
  const native = useMainButton(id ? "Save" : "Create link", form, { busy: submit.busy || state.loading, visible: !state.error });
  return html`<section>
    <h1>${id ? "Edit link" : "New link"}</h1>
    <${Async} state=${state}>${(x: Extras) => html`<${LinkFormBody} extras=${x} id=${id} form=${form} submit=${submit} native=${native} />`}<//>
  </section>`;
}

/** Form values from a link object (get response). */
function fromLink(l: Values | null): Values {
  const v: Values = { webhook_method: "POST", tagIds: [], pixelIds: [], rules: [], variants: [] };
  if (!l) return v;
  v.rules = ruleRows(l.rules);
  v.variants = variantRows(l.variants);
  for (const k of TEXT) v[k] = k === "url" ? l.original_url ?? l.url ?? "" : l[k] ?? "";
  v.password = "";
  v.starts_at = toLocalInput(l.starts_at);
  v.expires_at = toLocalInput(l.expires_at);
  v.max_clicks = l.max_clicks ?? "";
  v.webhook_method = l.webhook_method ?? "POST";
  v.webhook_enabled = l.webhook_enabled ?? true;
  v.is_active = l.is_active ?? true;
  v.domain_id = l.domain_id ?? "";
  v.tagIds = l.tagIds ?? (l.tags ?? []).map((t: Tag) => t.id);
  v.pixelIds = l.pixelIds ?? (l.pixels ?? []).map((p: { id: number }) => p.id);
  return v;
}

/** The request body from form values (empty → null, numbers and dates converted). */
function toBody(v: Values, edit: boolean): Values {
  const b: Values = {};
  for (const k of TEXT) b[k] = String(v[k] ?? "").trim() || null;
  b.starts_at = fromLocalInput(v.starts_at);
  b.expires_at = fromLocalInput(v.expires_at);
  b.max_clicks = v.max_clicks === "" || v.max_clicks == null ? null : Number(v.max_clicks);
  b.webhook_method = v.webhook_method;
  b.tagIds = v.tagIds;
  b.pixelIds = v.pixelIds;
  b.rules = v.rules.length ? rulesBody(v.rules) : null;
  b.variants = v.variants.length ? variantsBody(v.variants) : null;
  if (edit) {
    delete b.code;
    b.domain_id = v.domain_id === "" ? null : Number(v.domain_id);
    b.webhook_enabled = Boolean(v.webhook_enabled);
    b.is_active = Boolean(v.is_active);
    if (!b.password) delete b.password; // an empty password field on edit keeps the current one
  }
  return b;
}

function LinkFormBody({ extras, id, form, submit: { busy, error, setError, attempt }, native }: {
  extras: Extras; id?: string; form: RefObject<HTMLFormElement | null>; submit: Submit; native: boolean;
}) {
  const start = fromLink(extras.link);
  const f = useForm(start);
  const [tags, setTags] = useState(extras.tags);
  const [newTag, setNewTag] = useState("");

  const save = () =>
    attempt(async () => {
      const body = id ? changed(toBody(start, true), toBody(f.values, true)) : compact(toBody(f.values, false));
      if (id && f.values.clearPassword) body.password = null;
      const res = id ? await patch(`/api/links/${id}`, body) : await post("/api/links", body);
      toast(id ? "Link saved" : `Created ${res.trackingUrl ?? res.code}`);
      navigate(`/links/${res.id ?? id}`, true);
    }, form.current);
  const addTag = async () => {
    if (!newTag.trim()) return;
    try {
      const t = await post("/api/tags", { name: newTag.trim() });
      setTags([...tags, t]);
      f.set("tagIds", [...f.values.tagIds, t.id]);
      setNewTag("");
    } catch (e) {
      setError(errorText(e));
    }
  };
  const submit = (e: Event) => (e.preventDefault(), void save());
  const v = f.values;

  return html`<form class="card form" ref=${form} onSubmit=${submit}>
    ${error && html`<${ErrorBox} error=${error} />`}
    <${Field} label="Destination URL"><input type="url" required placeholder="https://example.com/page" ...${f.bind("url")} /><//>
    <${Field} label="Title"><input ...${f.bind("title")} placeholder="Spring campaign" /><//>
    ${!id && html`<${Field} label="Custom code (optional)" hint="3–64 letters, digits, - or _"><input ...${f.bind("code")} pattern=${CODE_PATTERN} /><//>`}
    <${Field} label="Tags" group>
      <${ChipSelect} label="Tags" items=${tags} selected=${v.tagIds} onChange=${(ids: number[]) => f.set("tagIds", ids)} />
      <div class="inline"><input placeholder="New tag" aria-label="New tag" value=${newTag} onInput=${(e: any) => setNewTag(e.currentTarget.value)} />
        <button type="button" class="btn small" onClick=${addTag}>Add tag</button></div>
    <//>
    <${Section} title="UTM parameters">
      <${Field} label="utm_source"><input ...${f.bind("utm_source")} /><//>
      <${Field} label="utm_medium"><input ...${f.bind("utm_medium")} /><//>
      <${Field} label="utm_campaign"><input ...${f.bind("utm_campaign")} /><//>
    <//>
    <${Section} title="Schedule and limits">
      <${Field} label="Starts at" hint="Visitors see a countdown before this"><input type="datetime-local" ...${f.bind("starts_at")} /><//>
      <${Field} label="Expires at"><input type="datetime-local" ...${f.bind("expires_at")} /><//>
      <${Field} label="Max clicks"><input type="number" min="1" ...${f.bind("max_clicks")} /><//>
      <${Field} label="After expiry go to"><input type="url" ...${f.bind("expired_url")} placeholder="https://…" /><//>
      <${Field} label="Password" hint=${id ? (extras.link?.has_password ? "Password set; leave empty to keep it" : "No password set") : undefined}><input type="password" autocomplete="new-password" ...${f.bind("password")} /><//>
      ${id && html`<label class="check"><input type="checkbox" ...${f.check("clearPassword")} /> Remove password</label>`}
    <//>
    <${Section} title="Per-platform targets">
      <${Field} label="iOS URL"><input type="url" ...${f.bind("ios_url")} /><//>
      <${Field} label="Android URL"><input type="url" ...${f.bind("android_url")} /><//>
      <${Field} label="Desktop URL"><input type="url" ...${f.bind("desktop_url")} /><//>
    <//>
    <${Section} title=${`Redirect rules${v.rules.length ? ` (${v.rules.length})` : ""}`} open=${v.rules.length > 0}>
      <${RulesEditor} rows=${v.rules} onChange=${(rows: unknown[]) => f.set("rules", rows)} />
    <//>
    <${Section} title=${`A/B split${v.variants.length ? ` (${v.variants.length})` : ""}`} open=${v.variants.length > 0}>
      <${VariantsEditor} rows=${v.variants} linkUrl=${v.url} onChange=${(rows: unknown[]) => f.set("variants", rows)} />
    <//>
    <${Section} title="Pixels">
      ${extras.pixels.length
        ? html`<${ChipSelect} label="Pixels" items=${extras.pixels.map((p) => ({ id: p.id, name: `${p.name} (${p.type})` }))}
            selected=${v.pixelIds} onChange=${(ids: number[]) => f.set("pixelIds", ids)} />`
        : html`<p class="hint">No pixels yet.</p>`}
    <//>
    <${Section} title="Click webhook">
      <${Field} label="Webhook URL" hint="Must answer 200 or 201 to a test request"><input type="url" ...${f.bind("webhook_url")} /><//>
      <${Field} label="Method"><select ...${f.bind("webhook_method")} onChange=${(e: any) => f.set("webhook_method", e.currentTarget.value)}>
        <option value="POST">POST</option><option value="GET">GET</option></select><//>
      ${id && html`<label class="check"><input type="checkbox" ...${f.check("webhook_enabled")} /> Webhook enabled
        ${extras.link?.webhook_failures ? html` <small class="hint">(${extras.link.webhook_failures} failed deliveries)</small>` : null}</label>`}
    <//>
    ${id && html`<${Section} title="Status and domain" open=${true}>
      <label class="check"><input type="checkbox" ...${f.check("is_active")} /> Link is active</label>
      <${Field} label="Domain"><select ...${f.bind("domain_id")} onChange=${(e: any) => f.set("domain_id", e.currentTarget.value)}>
        <option value="">Default</option>${extras.domains.map((d) => html`<option value=${d.id} disabled=${!d.verified && d.id !== extras.link?.domain_id}>${d.hostname}${d.verified ? "" : " (not verified)"}</option>`)}</select><//>
    <//>`}
    ${!native && html`<button class="btn primary" disabled=${busy}>${busy ? "Saving…" : id ? "Save" : "Create link"}</button>`}
  </form>`;
}
