/** Create or edit a tracking link with every option of the spec. */
import type { RefObject } from "preact";
import { useRef, useState } from "preact/hooks";
import { call, client } from "../api";
import { ChipSelect, Field, Section, changed, compact, fromLocalInput, toLocalInput, useForm } from "../form";
import { navigate } from "../router";
import { useMainButton } from "../telegram";
import { Async, ErrorBox, errorText, html, toast, useAsync, useSubmit, type Submit, inputValue } from "../ui";
import {
  RulesEditor,
  VariantsEditor,
  ruleRows,
  rulesBody,
  variantRows,
  variantsBody,
  type RuleRow,
  type VariantRow,
} from "./routing-editors";
import type { LinkDetails, Tag } from "../../../api/links/model";
import { t } from "../i18n";

const TEXT = [
  "url",
  "title",
  "code",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "expired_url",
  "password",
  "ios_url",
  "android_url",
  "desktop_url",
  "webhook_url",
] as const;

interface Extras {
  tags: Tag[];
  pixels: { id: number; name: string; type: string }[];
  domains: { id: number; hostname: string; verified: boolean }[];
  link: LinkDetails | null;
}

// the hyphen is escaped: browsers compile `pattern` with the v flag
const CODE_PATTERN = "[A-Za-z0-9_\\-]{3,64}";

const optional = <T>(p: Promise<T>, d: T) => p.catch(() => d);

export function LinkForm({ id }: { id?: string }) {
  const form = useRef<HTMLFormElement>(null);
  const submit = useSubmit();
  const state = useAsync<Extras>(async () => {
    const [tags, pixels, domains, link] = await Promise.all([
      optional(call(client.api.tags.get()), []),
      optional(call(client.api.pixels.get()), []),
      optional(call(client.api.domains.get()), []),
      id ? call(client.api.links({ id }).get()) : Promise.resolve(null),
    ]);
    return { tags, pixels, domains, link };
  }, [id]);
  const native = useMainButton(id ? t("app-save") : t("app-link-create"), form, {
    busy: submit.busy || state.loading,
    visible: !state.error,
  });
  return html`<section>
    <h1>${id ? t("app-link-edit-title") : t("app-links-new")}</h1>
    <${Async} state=${state}>${(x: Extras) => html`<${LinkFormBody} extras=${x} id=${id} form=${form} submit=${submit} native=${native} />`}<//>
  </section>`;
}

type TextField = (typeof TEXT)[number];

/** Form values from a link (GET response), or a new link's defaults. */
function fromLink(l: LinkDetails | null) {
  const text = Object.fromEntries(TEXT.map((k) => [k, ""])) as Record<TextField, string>;
  const v = {
    ...text,
    starts_at: "",
    expires_at: "",
    max_clicks: "" as string | number,
    webhook_method: "POST" as LinkDetails["webhook_method"],
    webhook_enabled: true,
    is_active: true,
    domain_id: "" as string | number,
    tagIds: [] as number[],
    pixelIds: [] as number[],
    rules: [] as RuleRow[],
    variants: [] as VariantRow[],
    clearPassword: false,
  };
  if (!l) return v;
  // the link's own texts (it has no `url` and never its password: those stay as above)
  const stored: Partial<Record<TextField, string | null>> = l;
  for (const k of TEXT) v[k] = k === "url" ? l.original_url : (stored[k] ?? "");
  return {
    ...v,
    rules: ruleRows(l.rules),
    variants: variantRows(l.variants),
    starts_at: toLocalInput(l.starts_at),
    expires_at: toLocalInput(l.expires_at),
    max_clicks: l.max_clicks ?? "",
    webhook_method: l.webhook_method,
    webhook_enabled: l.webhook_enabled,
    is_active: l.is_active,
    domain_id: l.domain_id ?? "",
    tagIds: l.tagIds,
    pixelIds: l.pixelIds,
  };
}

type LinkValues = ReturnType<typeof fromLink>;
/** The body of a new link, and of an edit. */
type NewLink = Parameters<typeof client.api.links.post>[0];

/** The request body from form values (empty → null, numbers and dates converted). */
function toBody(v: LinkValues) {
  const text = Object.fromEntries(TEXT.map((k) => [k, v[k].trim() || null])) as Record<TextField, string | null>;
  return {
    ...text,
    starts_at: fromLocalInput(v.starts_at),
    expires_at: fromLocalInput(v.expires_at),
    max_clicks: v.max_clicks === "" ? null : Number(v.max_clicks),
    webhook_method: v.webhook_method,
    tagIds: v.tagIds,
    pixelIds: v.pixelIds,
    rules: v.rules.length ? rulesBody(v.rules) : null,
    variants: v.variants.length ? variantsBody(v.variants) : null,
  };
}

/** An edit's body: no code; the password only when one is typed (an empty field keeps the current one). */
function toEditBody(v: LinkValues) {
  const { code: _code, password, ...rest } = toBody(v);
  return {
    ...rest,
    ...(password ? { password } : {}),
    domain_id: v.domain_id === "" ? null : Number(v.domain_id),
    webhook_enabled: v.webhook_enabled,
    is_active: v.is_active,
  };
}

function LinkFormBody({
  extras,
  id,
  form,
  submit: { busy, error, setError, attempt },
  native,
}: {
  extras: Extras;
  id?: string;
  form: RefObject<HTMLFormElement | null>;
  submit: Submit;
  native: boolean;
}) {
  const start = fromLink(extras.link);
  const f = useForm(start);
  const [tags, setTags] = useState(extras.tags);
  const [newTag, setNewTag] = useState("");

  const save = () =>
    attempt(async () => {
      const edit = () => ({ ...changed(toEditBody(start), toEditBody(f.values)), ...(f.values.clearPassword ? { password: null } : {}) });
      // the URL field is required, so a new link's body always has its url
      const res = id
        ? await call(client.api.links({ id }).patch(edit()))
        : await call(client.api.links.post(compact(toBody(f.values)) as NewLink));
      toast(id ? t("app-link-saved") : t("app-link-created", { url: res.trackingUrl ?? res.code }));
      navigate(`/links/${res.id ?? id}`, true);
    }, form.current);
  const addTag = async () => {
    if (!newTag.trim()) return;
    try {
      const tag = await call(client.api.tags.post({ name: newTag.trim() }));
      setTags([...tags, tag]);
      f.set("tagIds", [...f.values.tagIds, tag.id]);
      setNewTag("");
    } catch (e) {
      setError(errorText(e));
    }
  };
  const submit = (e: Event) => (e.preventDefault(), void save());
  const v = f.values;

  return html`<form class="card form" ref=${form} onSubmit=${submit}>
    ${error && html`<${ErrorBox} error=${error} />`}
    <${Field} label=${t("app-form-url")}><input type="url" required placeholder="https://example.com/page" ...${f.bind("url")} /><//>
    <${Field} label=${t("app-form-title")}><input ...${f.bind("title")} placeholder=${t("app-form-title-placeholder")} /><//>
    ${!id && html`<${Field} label=${t("app-form-code")} hint=${t("app-form-code-hint")}><input ...${f.bind("code")} pattern=${CODE_PATTERN} /><//>`}
    <${Field} label=${t("app-form-tags")} group>
      <${ChipSelect} label=${t("app-form-tags")} items=${tags} selected=${v.tagIds} onChange=${(ids: number[]) => f.set("tagIds", ids)} />
      <div class="inline"><input placeholder=${t("app-form-new-tag")} aria-label=${t("app-form-new-tag")} value=${newTag} onInput=${(e: Event) => setNewTag(inputValue(e))} />
        <button type="button" class="btn small" onClick=${addTag}>${t("app-form-add-tag")}</button></div>
    <//>
    <${Section} title=${t("app-form-utm")}>
      <${Field} label="utm_source"><input ...${f.bind("utm_source")} /><//>
      <${Field} label="utm_medium"><input ...${f.bind("utm_medium")} /><//>
      <${Field} label="utm_campaign"><input ...${f.bind("utm_campaign")} /><//>
    <//>
    <${Section} title=${t("app-form-schedule")}>
      <${Field} label=${t("app-form-starts")} hint=${t("app-form-starts-hint")}><input type="datetime-local" ...${f.bind("starts_at")} /><//>
      <${Field} label=${t("app-form-expires")}><input type="datetime-local" ...${f.bind("expires_at")} /><//>
      <${Field} label=${t("app-form-max-clicks")}><input type="number" min="1" ...${f.bind("max_clicks")} /><//>
      <${Field} label=${t("app-form-expired-url")}><input type="url" ...${f.bind("expired_url")} placeholder="https://…" /><//>
      <${Field} label=${t("app-form-password")} hint=${id ? (extras.link?.has_password ? t("app-form-password-set") : t("app-form-password-none")) : undefined}><input type="password" autocomplete="new-password" ...${f.bind("password")} /><//>
      ${id && html`<label class="check"><input type="checkbox" ...${f.check("clearPassword")} /> ${t("app-form-password-remove")}</label>`}
    <//>
    <${Section} title=${t("app-form-platforms")}>
      <${Field} label=${t("app-form-ios")}><input type="url" ...${f.bind("ios_url")} /><//>
      <${Field} label=${t("app-form-android")}><input type="url" ...${f.bind("android_url")} /><//>
      <${Field} label=${t("app-form-desktop")}><input type="url" ...${f.bind("desktop_url")} /><//>
    <//>
    <${Section} title=${`${t("app-rules")}${v.rules.length ? ` (${v.rules.length})` : ""}`} open=${v.rules.length > 0}>
      <${RulesEditor} rows=${v.rules} onChange=${(rows: RuleRow[]) => f.set("rules", rows)} />
    <//>
    <${Section} title=${`${t("app-form-ab")}${v.variants.length ? ` (${v.variants.length})` : ""}`} open=${v.variants.length > 0}>
      <${VariantsEditor} rows=${v.variants} linkUrl=${v.url} onChange=${(rows: VariantRow[]) => f.set("variants", rows)} />
    <//>
    <${Section} title=${t("app-form-pixels")}>
      ${
        extras.pixels.length
          ? html`<${ChipSelect} label=${t("app-form-pixels")} items=${extras.pixels.map((p) => ({ id: p.id, name: `${p.name} (${p.type})` }))}
            selected=${v.pixelIds} onChange=${(ids: number[]) => f.set("pixelIds", ids)} />`
          : html`<p class="hint">${t("app-form-pixels-none")}</p>`
      }
    <//>
    <${Section} title=${t("app-form-webhook")}>
      <${Field} label=${t("app-form-webhook-url")} hint=${t("app-form-webhook-hint")}><input type="url" ...${f.bind("webhook_url")} /><//>
      <${Field} label=${t("app-form-method")}><select ...${f.bind("webhook_method")} onChange=${f.pick("webhook_method")}>
        <option value="POST">POST</option><option value="GET">GET</option></select><//>
      ${
        id &&
        html`<label class="check"><input type="checkbox" ...${f.check("webhook_enabled")} /> ${t("app-form-webhook-enabled")}
        ${extras.link?.webhook_failures ? html` <small class="hint">(${t("app-form-webhook-failures", { count: extras.link.webhook_failures })})</small>` : null}</label>`
      }
    <//>
    ${
      id &&
      html`<${Section} title=${t("app-form-status")} open=${true}>
      <label class="check"><input type="checkbox" ...${f.check("is_active")} /> ${t("app-form-active")}</label>
      <${Field} label=${t("app-form-domain")}><select ...${f.bind("domain_id")} onChange=${f.pick("domain_id")}>
        <option value="">${t("app-form-domain-default")}</option>${extras.domains.map((d) => html`<option value=${d.id} disabled=${!d.verified && d.id !== extras.link?.domain_id}>${d.hostname}${d.verified ? "" : ` (${t("app-domain-not-verified")})`}</option>`)}</select><//>
    <//>`
    }
    ${!native && html`<button class="btn primary" disabled=${busy}>${busy ? t("app-saving") : id ? t("app-save") : t("app-link-create")}</button>`}
  </form>`;
}
