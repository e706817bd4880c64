/** Create or edit a keyword tracker with every filter of the spec. */
import type { RefObject } from "preact";
import { useRef } from "preact/hooks";
import { call, client } from "../api";
import { Field, Section, changed, useForm } from "../form";
import { navigate } from "../router";
import { useMainButton } from "../telegram";
import { Async, ErrorBox, html, toast, useAsync, useSubmit, type Submit, type Loaded } from "../ui";
import type { Tracker, TrackingFilters } from "../../../api/tracking/model";
import { t } from "../i18n";

type Filters = TrackingFilters;
type Option = Filters["geo"][number];
/** One of the owner's channels or groups (GET /api/channels); notifications can go where the bot is an administrator. */
interface Chat {
  chat_id: string;
  title: string | null;
  username: string | null;
  type: string;
  bot_is_admin: boolean;
}

const list = (s: string) => {
  const items = s
    .split(/[,\n]/)
    .map((x) => x.trim())
    .filter(Boolean);
  return items.length ? items : null;
};

/** The form's values: a tracker's, or a new one's defaults (lists as comma-separated text). */
function fromTracker(tr: Tracker | null) {
  return {
    name: tr?.name ?? "",
    keyword: tr?.keyword ?? "",
    exact_match: tr?.exact_match ?? false,
    syntax: tr?.syntax ?? "plain",
    word_forms: tr?.word_forms ?? false,
    skip_reposts: tr?.skip_reposts ?? false,
    watch_links: tr?.watch_links ?? false,
    minus_words: (tr?.minus_words ?? []).join(", "),
    search_channels: tr?.search_channels ?? true,
    search_chats: tr?.search_chats ?? true,
    filter_geo: tr?.filter_geo ?? "",
    filter_language: tr?.filter_language ?? "",
    filter_category: tr?.filter_category ?? "",
    filter_min_subscribers: tr?.filter_min_subscribers ?? "",
    include_sources: (tr?.include_sources ?? []).join(", "),
    exclude_sources: (tr?.exclude_sources ?? []).join(", "),
    notify_via: tr?.notify_via ?? "bot",
    webhook_url: tr?.webhook_url ?? "",
    notify_chat_id: tr?.notify_chat_id ?? "",
    notify_thread_id: tr?.notify_thread_id ?? "",
    notify_every: tr?.notify_every ?? "instant",
    notify_on_delete: tr?.notify_on_delete ?? false,
  };
}

type TrackerValues = ReturnType<typeof fromTracker>;

function toBody(v: TrackerValues) {
  return {
    name: v.name.trim(),
    keyword: v.keyword.trim(),
    exact_match: v.exact_match,
    syntax: v.syntax,
    word_forms: v.word_forms,
    skip_reposts: v.skip_reposts,
    watch_links: v.watch_links,
    minus_words: list(v.minus_words),
    search_channels: v.search_channels,
    search_chats: v.search_chats,
    filter_geo: v.filter_geo || null,
    filter_language: v.filter_language || null,
    filter_category: v.filter_category || null,
    filter_min_subscribers: v.filter_min_subscribers === "" ? null : Number(v.filter_min_subscribers),
    include_sources: list(v.include_sources),
    exclude_sources: list(v.exclude_sources),
    notify_via: v.notify_via,
    webhook_url: v.notify_via === "webhook" ? v.webhook_url.trim() || null : null,
    notify_chat_id: v.notify_via === "chat" ? v.notify_chat_id || null : null,
    notify_thread_id: v.notify_via === "chat" && String(v.notify_thread_id).trim() !== "" ? Number(v.notify_thread_id) : null,
    // webhooks are always instant
    notify_every: v.notify_via === "webhook" ? "instant" : v.notify_every,
    notify_on_delete: v.notify_on_delete,
  };
}

export function TrackerForm({ id }: { id?: string }) {
  const form = useRef<HTMLFormElement>(null);
  const submit = useSubmit();
  const state = useAsync(async () => {
    const [filters, tracker, chats] = await Promise.all([
      call(client.api.tracking.filters.get()).catch(() => ({ geo: [], languages: [], categories: [] })),
      id ? call(client.api.tracking({ id }).get()) : Promise.resolve(null),
      call(client.api.channels.get()).catch(() => [] as Chat[]),
    ]);
    return { filters, tracker, chats };
  }, [id]);
  // shown with the page (spinning until the form is there), not only once the form has loaded
  const native = useMainButton(id ? t("app-save") : t("app-tracker-create"), form, {
    busy: submit.busy || state.loading,
    visible: !state.error,
  });
  return html`<section><h1>${id ? t("app-tracker-edit") : t("app-tracker-new")}</h1>
    <${Async} state=${state}>${(s: Loaded<typeof state>) => html`<${Body} id=${id} filters=${s.filters} chats=${s.chats} tracker=${s.tracker} form=${form} submit=${submit} native=${native} />`}<//></section>`;
}

function Body({
  id,
  filters,
  chats,
  tracker,
  form,
  submit,
  native,
}: {
  id?: string;
  filters: Filters;
  chats: Chat[];
  tracker: Tracker | null;
  form: RefObject<HTMLFormElement | null>;
  submit: Submit;
  native: boolean;
}) {
  const start = fromTracker(tracker);
  const f = useForm(start);
  const { busy, error, attempt } = submit;
  const save = () =>
    attempt(async () => {
      const saved = id
        ? await call(client.api.tracking({ id }).patch(changed(toBody(start), toBody(f.values))))
        : await call(client.api.tracking.post(toBody(f.values)));
      toast(id ? t("app-tracker-saved") : t("app-tracker-created"));
      navigate(`/tracking/${saved.id ?? id}`, true);
    }, form.current);
  const select = (k: "filter_geo" | "filter_language" | "filter_category", opts: Option[], label: string) => html`<${Field} label=${label}>
    <select ...${f.bind(k)} onChange=${f.pick(k)}><option value="">${t("app-any")}</option>
      ${opts.map((o) => html`<option value=${o.code}>${o.label}</option>`)}</select><//>`;
  const v = f.values;
  return html`<form class="card form" ref=${form} onSubmit=${(e: Event) => (e.preventDefault(), void save())}>
    ${error && html`<${ErrorBox} error=${error} />`}
    <${Field} label=${t("app-name")}><input required maxlength="100" ...${f.bind("name")} /><//>
    <${Field} label=${t("app-tracker-keyword")} hint=${v.syntax === "query" ? `${v.keyword.length}/500 · ${t("app-tracker-query-hint")}` : `${v.keyword.length}/800`}>
      <textarea rows="2" required maxlength=${v.syntax === "query" ? 500 : 800} ...${f.bind("keyword")}></textarea><//>
    <${Field} label=${t("app-tracker-syntax")}><select ...${f.bind("syntax")} onChange=${f.pick("syntax")}>
      <option value="plain">${t("app-tracker-syntax-plain")}</option><option value="query">${t("app-tracker-syntax-query")}</option></select><//>
    ${v.syntax === "plain" && !v.word_forms && html`<label class="check"><input type="checkbox" ...${f.check("exact_match")} /> ${t("app-tracker-exact")}</label>`}
    <label class="check"><input type="checkbox" ...${f.check("word_forms")} /> ${t("app-tracker-word-forms")}</label>
    <label class="check"><input type="checkbox" ...${f.check("skip_reposts")} /> ${t("app-tracker-skip-reposts")}</label>
    <label class="check"><input type="checkbox" ...${f.check("watch_links")} /> ${t("app-tracker-watch-links")}</label>
    <${Field} label=${t("app-tracker-minus-words")} hint=${t("app-tracker-minus-hint")}><input ...${f.bind("minus_words")} /><//>
    <${Section} title=${t("app-tracker-where")} open=${true}>
      <label class="check"><input type="checkbox" ...${f.check("search_channels")} /> ${t("app-tab-channels")}</label>
      <label class="check"><input type="checkbox" ...${f.check("search_chats")} /> ${t("app-tracker-chats")}</label>
      ${select("filter_geo", filters.geo, t("app-click-country"))}
      ${select("filter_language", filters.languages, t("app-language"))}
      ${select("filter_category", filters.categories, t("app-tracker-category"))}
      <${Field} label=${t("app-tracker-min-subscribers")}><input type="number" min="0" ...${f.bind("filter_min_subscribers")} /><//>
      <${Field} label=${t("app-tracker-include")} hint=${t("app-tracker-sources-hint")}><input ...${f.bind("include_sources")} /><//>
      <${Field} label=${t("app-tracker-exclude")} hint=${t("app-tracker-sources-hint")}><input ...${f.bind("exclude_sources")} /><//>
    <//>
    <${Section} title=${t("app-tracker-notifications")} open=${true}>
      <${Field} label=${t("app-tracker-notify-via")}><select ...${f.bind("notify_via")} onChange=${f.pick("notify_via")}>
        <option value="bot">${t("app-tracker-via-bot")}</option><option value="chat">${t("app-tracker-via-chat")}</option><option value="webhook">${t("app-tracker-via-webhook")}</option></select><//>
      ${v.notify_via === "webhook" && html`<${Field} label=${t("app-form-webhook-url")}><input type="url" required ...${f.bind("webhook_url")} /><//>`}
      ${v.notify_via === "chat" && html`<${ChatPicker} chats=${chats} f=${f} />`}
      ${
        v.notify_via !== "webhook" &&
        html`<${Field} label=${t("app-tracker-how-often")}><select ...${f.bind("notify_every")} onChange=${f.pick("notify_every")}>
        <option value="instant">${t("app-tracker-instant")}</option><option value="hour">${t("app-tracker-hourly")}</option><option value="day">${t("app-tracker-daily")}</option></select><//>`
      }
      <label class="check"><input type="checkbox" ...${f.check("notify_on_delete")} /> ${t("app-tracker-on-delete")}</label>
    <//>
    ${!native && html`<button class="btn primary" disabled=${busy}>${busy ? t("app-saving") : id ? t("app-save") : t("app-tracker-create")}</button>`}
  </form>`;
}

/** The chat for notify_via "chat": one of the owner's channels or groups where the bot is an administrator, and a forum topic. */
function ChatPicker({ chats, f }: { chats: Chat[]; f: ReturnType<typeof useForm<TrackerValues>> }) {
  const usable = chats.filter((c) => c.bot_is_admin);
  const name = (c: Chat) => `${c.title ?? c.chat_id}${c.username ? ` (@${c.username})` : ""}`;
  const current = f.values.notify_chat_id;
  return html`
    <${Field} label=${t("app-tracker-chat")} hint=${usable.length ? t("app-tracker-chat-hint") : t("app-tracker-chat-none")}>
      <select required ...${f.bind("notify_chat_id")} onChange=${f.pick("notify_chat_id")}>
        <option value="">${t("app-choose")}</option>
        ${usable.map((c) => html`<option value=${c.chat_id}>${name(c)}</option>`)}
        ${current && !usable.some((c) => c.chat_id === current) && html`<option value=${current}>${current}</option>`}
      </select><//>
    <${Field} label=${t("app-tracker-topic")} hint=${t("app-tracker-topic-hint")}><input inputmode="numeric" pattern="[0-9]*" ...${f.bind("notify_thread_id")} /><//>`;
}
