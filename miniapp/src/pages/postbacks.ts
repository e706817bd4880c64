/**
 * Postbacks (/postbacks, or a link's or placement's: ?link_id= / ?placement_id=): the list with each
 * one's receiver and events, a test that shows what the receiver answered, its delivery log and
 * delete; a form for a new one (the URL template and method, or Meta's Conversions API; events as
 * toggles plus any typed); and the keys for incoming conversions (the GET address to copy, revoke).
 */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { useRoute } from "../router";
import { Async, CopyButton, Empty, ErrorBox, confirmed, fmtDate, html, useAction, useAsync, useSubmit, inputValue } from "../ui";
import { t } from "../i18n";
import { eventName } from "./conversions";
import type { PostbackKeysModel, PostbacksModel } from "../../../api/conversions/model";
import { failureWords, storedFailureWords, type FailureKeys } from "../../../core/i18n/target-failure";

type Postback = (typeof PostbacksModel.postback)["static"];
type Delivery = (typeof PostbacksModel.delivery)["static"];
type TestResult = (typeof PostbacksModel.testResult)["static"];
type Key = (typeof PostbackKeysModel.key)["static"];
type MadeKey = (typeof PostbackKeysModel.created)["static"];

/** The events offered as toggles (any other can be typed). */
const OFFERED = ["click", "join_request", "join", "leave", "start", "lead", "purchase", "*"];

/** The scope the page was opened for, from its query. */
function scopeOfQuery(query: URLSearchParams): { link_id?: number; placement_id?: number } {
  const link = Number(query.get("link_id"));
  const placement = Number(query.get("placement_id"));
  return link > 0 ? { link_id: link } : placement > 0 ? { placement_id: placement } : {};
}

export function PostbacksPage() {
  const { query } = useRoute();
  const scope = scopeOfQuery(query);
  const list = useAsync(() => call(client.api.postbacks.get({ query: scope })), [scope.link_id, scope.placement_id]);
  return html`<section>
    <header class="page-head"><h1>${t("app-pb-title")}</h1></header>
    <p class="hint">${scope.link_id ? t("app-pb-for-link") : scope.placement_id ? t("app-pb-for-placement") : t("app-pb-intro")}</p>
    <${Async} state=${list}>${(items: Postback[]) =>
      items.length === 0
        ? html`<${Empty}>${t("app-pb-none")}<//>`
        : html`<ul class="list" data-testid="postbacks">${items.map((p) => html`<${PostbackItem} key=${p.id} p=${p} onDeleted=${list.reload} />`)}</ul>`}<//>
    <${NewPostback} scope=${scope} onMade=${list.reload} />
    <${KeysCard} />
  </section>`;
}

const targetOf = (p: Postback) => (p.kind === "meta" ? t("app-pb-meta-target", { pixel: p.pixel_id ?? "" }) : `${p.method} ${p.url}`);
const scopeText = (p: Postback) =>
  p.link_id
    ? t("app-pb-scope-link", { id: p.link_id })
    : p.placement_id
      ? t("app-pb-scope-placement", { id: p.placement_id })
      : t("app-pb-scope-all");

/** One postback: receiver, events and scope; Test (the answer below it), Log, Delete. */
function PostbackItem({ p, onDeleted }: { p: Postback; onDeleted: () => void }) {
  const { busy, run } = useAction();
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const [log, setLog] = useState(false);
  const test = () =>
    run(async () => {
      setAnswer(null);
      const r = await call(client.api.postbacks({ id: p.id }).test.post({}));
      setAnswer({ ok: Boolean(r.ok), text: testText(r) });
    });
  const remove = () =>
    confirmed(t("app-pb-delete-confirm", { target: targetOf(p) })) &&
    run(async () => {
      await call(client.api.postbacks({ id: p.id }).delete());
      onDeleted();
    }, t("app-pb-deleted"));
  return html`<li class="card" data-testid="postback">
    <div class="mono ellipsis" title=${targetOf(p)}>${targetOf(p)}</div>
    <div class="row-sub">${scopeText(p)} · ${t("app-pb-events", { events: p.events.map(eventName).join(", ") })}</div>
    <div class="button-row">
      <button class="btn small" disabled=${busy} onClick=${test}>${t("app-pb-test")}</button>
      <button class="btn small" aria-expanded=${log} onClick=${() => setLog(!log)}>${t("app-pb-log")}</button>
      <button class="btn small danger" disabled=${busy} onClick=${remove}>${t("app-delete")}</button>
    </div>
    ${answer && html`<p class=${answer.ok ? "note" : "note error"} role="status" data-testid="test-answer">${answer.text}</p>`}
    ${log && html`<${DeliveryLog} id=${p.id} />`}
  </li>`;
}

/** The mini-app's words for a failure (core/i18n/target-failure.ts), each key named in full for the language files' check. */
const WHY: FailureKeys = {
  status: "app-target-why-status",
  timeout: "app-target-why-timeout",
  timeoutAfter: "app-target-why-timeout-after",
  network: "app-target-why-network",
  refused: "app-target-why-refused",
  invalid: "app-target-why-invalid",
};

/** What the receiver answered a test, in words. */
function testText(r: TestResult): string {
  const body = r.body?.trim() ? t("app-pb-test-body", { body: r.body.trim().slice(0, 200) }) : t("app-pb-test-no-body");
  if (r.ok) return t("app-pb-test-ok", { status: String(r.status), body });
  if (r.status) return t("app-pb-test-refused", { status: String(r.status), body });
  // why, in the reader's words: the API's `error` is English
  const why = failureWords(t, WHY, r);
  return t("app-pb-test-unreachable", { error: why });
}

const STATES = ["pending", "sending", "done", "failed", "cancelled"];

function DeliveryLog({ id }: { id: number }) {
  const log = useAsync(() => call(client.api.postbacks({ id }).deliveries.get({ query: { limit: 20 } })), [id]);
  return html`<${Async} state=${log}>${(rows: Delivery[]) =>
    rows.length === 0
      ? html`<p class="hint" data-testid="delivery-log">${t("app-pb-log-none")}</p>`
      : html`<div class="table-wrap"><table class="clicks" data-testid="delivery-log"><thead><tr>
          <th>${t("app-pb-log-when")}</th><th>${t("app-pb-log-event")}</th><th>${t("app-pb-log-state")}</th><th>${t("app-pb-log-answer")}</th></tr></thead>
          <tbody>${rows.map(
            (d) => html`<tr><td>${fmtDate(d.created_at)}</td><td>${d.event ? eventName(d.event) : "—"}</td>
            <td>${STATES.includes(d.status) ? t(`app-pb-state-${d.status}`) : d.status}${d.attempts > 1 ? ` · ${t("app-pb-attempts", { count: d.attempts })}` : ""}</td>
            <td class="ellipsis">${d.last_error ? storedFailureWords(t, WHY, d.last_error) : "—"}</td></tr>`,
          )}</tbody></table></div>`}<//>`;
}

/** The new postback's form: the receiver, the events as toggles (and typed), for the page's scope or everything. */
function NewPostback({ scope, onMade }: { scope: { link_id?: number; placement_id?: number }; onMade: () => void }) {
  const [kind, setKind] = useState<"url" | "meta">("url");
  const [url, setUrl] = useState("");
  const [method, setMethod] = useState<"GET" | "POST">("GET");
  const [pixel, setPixel] = useState("");
  const [token, setToken] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const [typed, setTyped] = useState("");
  const { busy, error, attempt } = useSubmit();
  const toggle = (e: string) => setEvents((cur) => (cur.includes(e) ? cur.filter((x) => x !== e) : [...cur, e]));
  const submit = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const all = [...new Set([...events, ...typed.split(/[\s,;]+/).filter(Boolean)])];
    void attempt(async () => {
      const body =
        kind === "meta"
          ? { kind, pixel_id: pixel.trim(), access_token: token.trim(), events: all, ...scope }
          : { url: url.trim(), method, events: all, ...scope };
      await call(client.api.postbacks.post(body));
      setUrl("");
      setEvents([]);
      setTyped("");
      onMade();
    }, form);
  };
  return html`<form class="card form" data-testid="new-postback" onSubmit=${submit}><h2>${t("app-pb-new")}</h2>
    ${error && html`<${ErrorBox} error=${error} />`}
    <div class="chips" role="group" aria-label=${t("app-pb-kind")}>
      <button type="button" class=${kind === "url" ? "chip on" : "chip"} aria-pressed=${kind === "url"} onClick=${() => setKind("url")}>${t("app-pb-kind-url")}</button>
      <button type="button" class=${kind === "meta" ? "chip on" : "chip"} aria-pressed=${kind === "meta"} onClick=${() => setKind("meta")}>${t("app-pb-kind-meta")}</button>
    </div>
    ${
      kind === "url"
        ? html`<label class="field">${t("app-pb-url")}<input name="url" required inputmode="url" autocomplete="off" spellcheck="false"
            placeholder="https://network.example/postback?clickid={click_id}&goal={event}&sum={value}" value=${url} onInput=${(e: Event) => setUrl(inputValue(e))} /></label>
          <p class="hint">${t("app-pb-macros")}</p>
          <label class="field">${t("app-form-method")} <select name="method" value=${method} onChange=${(e: Event) => setMethod(inputValue(e) === "POST" ? "POST" : "GET")}>
            <option value="GET">GET</option><option value="POST">${t("app-pb-post-json")}</option></select></label>`
        : html`<label class="field">${t("app-pb-pixel")}<input name="pixel_id" required value=${pixel} onInput=${(e: Event) => setPixel(inputValue(e))} /></label>
          <label class="field">${t("app-pb-access-token")}<input name="access_token" required autocomplete="off" value=${token} onInput=${(e: Event) => setToken(inputValue(e))} /></label>`
    }
    <div class="chips" role="group" aria-label=${t("app-pb-events-label")}>${OFFERED.map(
      (e) =>
        html`<button type="button" class=${events.includes(e) ? "chip on" : "chip"} aria-pressed=${events.includes(e)} onClick=${() => toggle(e)}>${eventName(e)}</button>`,
    )}</div>
    <label class="field">${t("app-pb-other-events")}<input name="events" autocomplete="off" value=${typed} onInput=${(e: Event) => setTyped(inputValue(e))} /></label>
    <button class="btn" disabled=${busy}>${t("app-pb-create")}</button>
  </form>`;
}

/** Keys for incoming conversions: each key's name and first characters, revoke; a new key, its GET address shown once to copy. */
function KeysCard() {
  const keys = useAsync(() => call(client.api["postback-keys"].get()), []);
  const [name, setName] = useState("");
  const [made, setMade] = useState<MadeKey | null>(null);
  const { busy, run } = useAction();
  const make = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      setMade(await call(client.api["postback-keys"].post({ name: name.trim() })));
      setName("");
      keys.reload();
    });
  };
  const revoke = (k: Key) =>
    confirmed(t("app-pbk-revoke-confirm", { name: k.name })) &&
    run(async () => (await call(client.api["postback-keys"]({ id: k.id }).delete()), keys.reload()), t("app-pbk-revoked"));
  return html`<div class="card" data-testid="postback-keys"><h2>${t("app-pbk-title")}</h2>
    <p class="hint">${t("app-pbk-how")}</p>
    ${
      made &&
      html`<div class="secret" role="status"><p>${t("app-pbk-copy-now")}</p>
      <div class="row-line"><code class="mono ellipsis" data-testid="postback-key-url">${made.url}</code><${CopyButton} text=${made.url} /></div>
      <button class="link-btn" onClick=${() => setMade(null)}>${t("app-done")}</button></div>`
    }
    <${Async} state=${keys}>${(list: Key[]) => {
      const live = list.filter((k) => !k.revoked_at);
      return live.length === 0
        ? html`<${Empty}>${t("app-pbk-none")}<//>`
        : html`<ul class="list compact" data-testid="postback-key-list">${live.map(
            (k) => html`<li class="row-line"><span><strong>${k.name}</strong> <code class="mono">${k.prefix}…</code>
            <small class="hint"> ${t("app-pbk-made-on", { date: fmtDate(k.created_at) })}</small></span>
            <button class="btn small danger" disabled=${busy} onClick=${() => revoke(k)}>${t("app-revoke")}</button></li>`,
          )}</ul>`;
    }}<//>
    <form class="form sub" onSubmit=${make}>
      <input name="keyName" required maxlength="100" aria-label=${t("app-pbk-name")} placeholder=${t("app-pbk-name")} value=${name} onInput=${(e: Event) => setName(inputValue(e))} />
      <button class="btn small" disabled=${busy}>${t("app-pbk-new")}</button></form>
  </div>`;
}
