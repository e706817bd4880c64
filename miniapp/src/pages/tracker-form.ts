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
/** One of the owner's channels or groups (GET /api/channels); notifications can go where the bot is an administrator. */
interface Chat { chat_id: string; title: string | null; username: string | null; type: string; bot_is_admin: boolean }

const list = (s: string) => {
  const items = s.split(/[,\n]/).map((x) => x.trim()).filter(Boolean);
  return items.length ? items : null;
};

function fromTracker(t: Values | null): Values {
  return {
    name: t?.name ?? "", keyword: t?.keyword ?? "", exact_match: t?.exact_match ?? false, syntax: t?.syntax ?? "plain",
    word_forms: t?.word_forms ?? false, skip_reposts: t?.skip_reposts ?? false, watch_links: t?.watch_links ?? false,
    minus_words: (t?.minus_words ?? []).join(", "), search_channels: t?.search_channels ?? true, search_chats: t?.search_chats ?? true,
    filter_geo: t?.filter_geo ?? "", filter_language: t?.filter_language ?? "", filter_category: t?.filter_category ?? "",
    filter_min_subscribers: t?.filter_min_subscribers ?? "", include_sources: (t?.include_sources ?? []).join(", "),
    exclude_sources: (t?.exclude_sources ?? []).join(", "), notify_via: t?.notify_via ?? "bot", webhook_url: t?.webhook_url ?? "",
    notify_chat_id: t?.notify_chat_id ?? "", notify_thread_id: t?.notify_thread_id ?? "", notify_every: t?.notify_every ?? "instant",
    notify_on_delete: t?.notify_on_delete ?? false,
  };
}

function toBody(v: Values): Values {
  return {
    name: v.name.trim(), keyword: v.keyword.trim(), exact_match: v.exact_match, syntax: v.syntax, word_forms: v.word_forms,
    skip_reposts: v.skip_reposts, watch_links: v.watch_links, minus_words: list(v.minus_words),
    search_channels: v.search_channels, search_chats: v.search_chats, filter_geo: v.filter_geo || null,
    filter_language: v.filter_language || null, filter_category: v.filter_category || null,
    filter_min_subscribers: v.filter_min_subscribers === "" ? null : Number(v.filter_min_subscribers),
    include_sources: list(v.include_sources), exclude_sources: list(v.exclude_sources), notify_via: v.notify_via,
    webhook_url: v.notify_via === "webhook" ? v.webhook_url.trim() || null : null,
    notify_chat_id: v.notify_via === "chat" ? v.notify_chat_id || null : null,
    notify_thread_id: v.notify_via === "chat" && String(v.notify_thread_id).trim() !== "" ? Number(v.notify_thread_id) : null,
    // webhooks are always instant
    notify_every: v.notify_via === "webhook" ? "instant" : v.notify_every, notify_on_delete: v.notify_on_delete,
  };
}

export function TrackerForm({ id }: { id?: string }) {
  const form = useRef<HTMLFormElement>(null);
  const submit = useSubmit();
  const state = useAsync(async () => {
    const [filters, tracker, chats] = await Promise.all([
      get<Filters>("/api/tracking/filters").catch(() => ({ geo: [], languages: [], categories: [] })),
      id ? get<Tracker>(`/api/tracking/${id}`) : Promise.resolve(null),
      get<Chat[]>("/api/channels").catch(() => [] as Chat[]),
    ]);
    return { filters, tracker, chats };
  }, [id]);
  // shown with the page (spinning until the form is there), not only once the form has loaded
  const native = useMainButton(id ? "Save" : "Create tracker", form, { busy: submit.busy || state.loading, visible: !state.error });
  return html`<section><h1>${id ? "Edit tracker" : "New tracker"}</h1>
    <${Async} state=${state}>${(s: any) => html`<${Body} id=${id} filters=${s.filters} chats=${s.chats} tracker=${s.tracker} form=${form} submit=${submit} native=${native} />`}<//></section>`;
}

function Body({ id, filters, chats, tracker, form, submit, native }: {
  id?: string; filters: Filters; chats: Chat[]; tracker: Values | null; form: RefObject<HTMLFormElement | null>; submit: Submit; native: boolean;
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
    <${Field} label="Keyword or phrase" hint=${v.syntax === "query" ? `${v.keyword.length}/500 · spaces: all words; OR or |: either; -word: not; "…": phrase; word*: starts with; ( ): group; a NEAR/3 b: close together` : `${v.keyword.length}/800`}>
      <textarea rows="2" required maxlength=${v.syntax === "query" ? 500 : 800} ...${f.bind("keyword")}></textarea><//>
    <${Field} label="Syntax"><select ...${f.bind("syntax")} onChange=${(e: any) => f.set("syntax", e.currentTarget.value)}>
      <option value="plain">One word or phrase</option><option value="query">Query (AND, OR, NOT, phrases, NEAR)</option></select><//>
    ${v.syntax === "plain" && !v.word_forms && html`<label class="check"><input type="checkbox" ...${f.check("exact_match")} /> Whole words only</label>`}
    <label class="check"><input type="checkbox" ...${f.check("word_forms")} /> Any word forms (канал: каналы, каналов; run: runs, running)</label>
    <label class="check"><input type="checkbox" ...${f.check("skip_reposts")} /> Skip forwards and copies of a post matched in the last 24 hours</label>
    <label class="check"><input type="checkbox" ...${f.check("watch_links")} /> Also posts with my short links or invite links</label>
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
        <option value="bot">Bot message</option><option value="chat">A channel or group of mine</option><option value="webhook">Webhook</option></select><//>
      ${v.notify_via === "webhook" && html`<${Field} label="Webhook URL"><input type="url" required ...${f.bind("webhook_url")} /><//>`}
      ${v.notify_via === "chat" && html`<${ChatPicker} chats=${chats} f=${f} />`}
      ${v.notify_via !== "webhook" && html`<${Field} label="How often"><select ...${f.bind("notify_every")} onChange=${(e: any) => f.set("notify_every", e.currentTarget.value)}>
        <option value="instant">At once</option><option value="hour">One digest an hour</option><option value="day">One digest a day (UTC)</option></select><//>`}
      <label class="check"><input type="checkbox" ...${f.check("notify_on_delete")} /> Also notify when a matched post is deleted</label>
    <//>
    ${!native && html`<button class="btn primary" disabled=${busy}>${busy ? "Saving…" : id ? "Save" : "Create tracker"}</button>`}
  </form>`;
}

/** The chat for notify_via "chat": one of the owner's channels or groups where the bot is an administrator, and a forum topic. */
function ChatPicker({ chats, f }: { chats: Chat[]; f: ReturnType<typeof useForm> }) {
  const usable = chats.filter((c) => c.bot_is_admin);
  const name = (c: Chat) => `${c.title ?? c.chat_id}${c.username ? ` (@${c.username})` : ""}`;
  const current = f.values.notify_chat_id;
  return html`
    <${Field} label="Chat" hint=${usable.length ? "Your channels and groups where the bot is an administrator" : "Add the bot to a channel or group of yours as an administrator first (Channels)"}>
      <select required ...${f.bind("notify_chat_id")} onChange=${(e: any) => f.set("notify_chat_id", e.currentTarget.value)}>
        <option value="">Choose…</option>
        ${usable.map((c) => html`<option value=${c.chat_id}>${name(c)}</option>`)}
        ${current && !usable.some((c) => c.chat_id === current) && html`<option value=${current}>${current}</option>`}
      </select><//>
    <${Field} label="Forum topic" hint="Optional: the topic id in a group with topics"><input inputmode="numeric" pattern="[0-9]*" ...${f.bind("notify_thread_id")} /><//>`;
}
