/** Create or edit a keyword tracker with every filter of the spec. */
import type { RefObject } from "preact";
import { useRef } from "preact/hooks";
import { get, patch, post } from "../api";
import { Field, Section, changed, useForm, type Values } from "../form";
import { navigate } from "../router";
import { useMainButton } from "../telegram";
import { Async, ErrorBox, html, toast, useAsync, useSubmit, type Submit } from "../ui";
import type { Tracker, TrackingFilters } from "../../../api/tracking/model";

type Filters = TrackingFilters;
type Option = Filters["geo"][number];

const list = (s: string) => {
  const items = s.split(/[,\n]/).map((x) => x.trim()).filter(Boolean);
  return items.length ? items : null;
};

function fromTracker(t: Values | null): Values {
  return {
    name: t?.name ?? "", keyword: t?.keyword ?? "", exact_match: t?.exact_match ?? false,
    minus_words: (t?.minus_words ?? []).join(", "), search_channels: t?.search_channels ?? true, search_chats: t?.search_chats ?? true,
    filter_geo: t?.filter_geo ?? "", filter_language: t?.filter_language ?? "", filter_category: t?.filter_category ?? "",
    filter_min_subscribers: t?.filter_min_subscribers ?? "", include_sources: (t?.include_sources ?? []).join(", "),
    exclude_sources: (t?.exclude_sources ?? []).join(", "), notify_via: t?.notify_via ?? "bot", webhook_url: t?.webhook_url ?? "",
    notify_on_delete: t?.notify_on_delete ?? false,
  };
}

function toBody(v: Values): Values {
  return {
    name: v.name.trim(), keyword: v.keyword.trim(), exact_match: v.exact_match, minus_words: list(v.minus_words),
    search_channels: v.search_channels, search_chats: v.search_chats, filter_geo: v.filter_geo || null,
    filter_language: v.filter_language || null, filter_category: v.filter_category || null,
    filter_min_subscribers: v.filter_min_subscribers === "" ? null : Number(v.filter_min_subscribers),
    include_sources: list(v.include_sources), exclude_sources: list(v.exclude_sources), notify_via: v.notify_via,
    webhook_url: v.notify_via === "webhook" ? v.webhook_url.trim() || null : null, notify_on_delete: v.notify_on_delete,
  };
}

export function TrackerForm({ id }: { id?: string }) {
  const form = useRef<HTMLFormElement>(null);
  const submit = useSubmit();
  const state = useAsync(async () => {
    const [filters, tracker] = await Promise.all([
      get<Filters>("/api/tracking/filters").catch(() => ({ geo: [], languages: [], categories: [] })),
      id ? get<Tracker>(`/api/tracking/${id}`) : Promise.resolve(null),
    ]);
    return { filters, tracker };
  }, [id]);
  // shown with the page (spinning until the form is there), not only once the form has loaded
  const native = useMainButton(id ? "Save" : "Create tracker", form, { busy: submit.busy || state.loading, visible: !state.error });
  return html`<section><h1>${id ? "Edit tracker" : "New tracker"}</h1>
    <${Async} state=${state}>${(s: any) => html`<${Body} id=${id} filters=${s.filters} tracker=${s.tracker} form=${form} submit=${submit} native=${native} />`}<//></section>`;
}

function Body({ id, filters, tracker, form, submit, native }: {
  id?: string; filters: Filters; tracker: Values | null; form: RefObject<HTMLFormElement | null>; submit: Submit; native: boolean;
}) {
  const start = fromTracker(tracker);
  const f = useForm(start);
  const { busy, error, attempt } = submit;
  const save = () =>
    attempt(async () => {
      const body = id ? changed(toBody(start), toBody(f.values)) : toBody(f.values);
      const t = id ? await patch(`/api/tracking/${id}`, body) : await post("/api/tracking", body);
      toast(id ? "Tracker saved" : "Tracker created");
      navigate(`/tracking/${t.id ?? id}`, true);
    }, form.current);
  const select = (k: string, opts: Option[], label: string) => html`<${Field} label=${label}>
    <select ...${f.bind(k)} onChange=${(e: any) => f.set(k, e.currentTarget.value)}><option value="">Any</option>
      ${opts.map((o) => html`<option value=${o.code}>${o.label}</option>`)}</select><//>`;
  const v = f.values;
  return html`<form class="card form" ref=${form} onSubmit=${(e: Event) => (e.preventDefault(), void save())}>
    ${error && html`<${ErrorBox} error=${error} />`}
    <${Field} label="Name"><input required maxlength="100" ...${f.bind("name")} /><//>
    <${Field} label="Keyword or phrase" hint=${`${v.keyword.length}/800`}><textarea rows="2" required maxlength="800" ...${f.bind("keyword")}></textarea><//>
    <label class="check"><input type="checkbox" ...${f.check("exact_match")} /> Whole words only</label>
    <${Field} label="Minus words" hint="Comma separated; any of them vetoes a match"><input ...${f.bind("minus_words")} /><//>
    <${Section} title="Where to search" open=${true}>
      <label class="check"><input type="checkbox" ...${f.check("search_channels")} /> Channels</label>
      <label class="check"><input type="checkbox" ...${f.check("search_chats")} /> Chats</label>
      ${select("filter_geo", filters.geo, "Country")}
      ${select("filter_language", filters.languages, "Language")}
      ${select("filter_category", filters.categories, "Category")}
      <${Field} label="Minimum subscribers"><input type="number" min="0" ...${f.bind("filter_min_subscribers")} /><//>
      <${Field} label="Only these sources" hint="@username, chat id or t.me link; comma separated"><input ...${f.bind("include_sources")} /><//>
      <${Field} label="Exclude sources" hint="@username, chat id or t.me link; comma separated"><input ...${f.bind("exclude_sources")} /><//>
    <//>
    <${Section} title="Notifications" open=${true}>
      <${Field} label="Notify via"><select ...${f.bind("notify_via")} onChange=${(e: any) => f.set("notify_via", e.currentTarget.value)}>
        <option value="bot">Bot message</option><option value="webhook">Webhook</option></select><//>
      ${v.notify_via === "webhook" && html`<${Field} label="Webhook URL"><input type="url" required ...${f.bind("webhook_url")} /><//>`}
      <label class="check"><input type="checkbox" ...${f.check("notify_on_delete")} /> Also notify when a matched post is deleted</label>
    <//>
    ${!native && html`<button class="btn primary" disabled=${busy}>${busy ? "Saving…" : id ? "Save" : "Create tracker"}</button>`}
  </form>`;
}
