/** One secure file: its content summary and its share links (create, copy, revoke, restore, delete). */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { navigate } from "../router";
import {
  Async,
  CopyButton,
  Empty,
  confirmed,
  fmtBytes,
  fmtDate,
  html,
  useAction,
  useAsync,
  inputValue,
  inputChecked,
  type Loaded,
} from "../ui";
import type { SecureLink } from "../../../api/secure/model";
import { t } from "../i18n";

/** A link's state → its badge class; the text is `app-share-state-<state>`. */
const STATE: Record<string, string> = {
  active: "badge ok",
  revoked: "badge danger",
  paused: "badge warn",
  expired: "badge muted",
  exhausted: "badge muted",
};

/** The server's state when given, else derived from the spec's fields. */
function status(l: SecureLink): { text: string; cls: string } {
  const state =
    l.state && STATE[l.state]
      ? l.state
      : l.isRevoked
        ? "revoked"
        : l.expiresAt && new Date(l.expiresAt).getTime() <= Date.now()
          ? "expired"
          : l.maxViews != null && l.viewCount >= l.maxViews
            ? "exhausted"
            : "active";
  return { text: t(`app-share-state-${state}`), cls: STATE[state]! };
}

export function FilePage({ id }: { id: string }) {
  const file = useAsync(() => call(client.api.secure.files({ id }).get()), [id]);
  const links = useAsync(() => call(client.api.secure.links.get({ query: { fileId: Number(id) } })), [id]);
  const { busy, run } = useAction();
  const remove = () =>
    confirmed(t("app-file-delete-confirm")) &&
    run(async () => {
      const folderId = file.data?.folderId;
      await call(client.api.secure.files({ id }).delete());
      navigate(folderId ? `/secure/folders/${folderId}` : "/secure", true);
    }, t("app-file-deleted"));

  return html`<section>
    <${Async} state=${file}>${(f: Loaded<typeof file>) => html`
      <header class="page-head"><h1 class="ellipsis">${f.name}</h1>
        <button class="btn small danger" disabled=${busy} onClick=${remove}>${t("app-delete")}</button></header>
      <div class="card">
        ${f.description && html`<p>${f.description}</p>`}
        <p class="hint">${f.contentType}${f.mimeType ? ` · ${f.mimeType}` : ""}${f.fileSize != null ? ` · ${fmtBytes(f.fileSize)}` : ""} · ${t("app-passkey-added-on", { date: fmtDate(f.createdAt) })}</p>
        ${f.textContent && html`<pre class="note-text">${f.textContent}</pre>`}
        ${f.hasContent === false && html`<p class="badge warn">${t("app-file-no-content")}</p>`}
      </div>
      <h2>${t("app-share-links")}</h2>
      <${Async} state=${links}>${(list: SecureLink[]) =>
        list.length === 0
          ? html`<${Empty}>${t("app-share-links-none")}<//>`
          : html`<ul class="list">${list.map((l) => html`<li key=${l.id}><${LinkRow} link=${l} onChange=${links.reload} /></li>`)}</ul>`}<//>
      <${NewLink} fileId=${Number(id)} onCreated=${links.reload} />`}<//>
  </section>`;
}

function LinkRow({ link, onChange }: { link: SecureLink; onChange: () => void }) {
  const { busy, run } = useAction();
  const s = status(link);
  const act = (fn: () => Promise<unknown>, msg: string) => run(async () => (await fn(), onChange(), true), msg);
  const [password, setPassword] = useState<string | null>(null);
  const savePassword = async (e: Event) => {
    e.preventDefault();
    if (await act(() => call(client.api.secure.links({ id: link.id }).patch({ password })), t("app-password-set"))) setPassword(null);
  };
  return html`<div class="row static" data-code=${link.code}>
    <div class="row-main">
      <div class="row-line"><span class="mono ellipsis">${link.url}</span><${CopyButton} text=${link.url} /></div>
      <div class="row-sub"><span class=${s.cls}>${s.text}</span> ${t("app-share-views", { views: `${link.viewCount}${link.maxViews != null ? `/${link.maxViews}` : ""}`, count: link.viewCount })} ·
        ${link.expiresAt ? ` ${t("app-token-expires", { date: fmtDate(link.expiresAt) })}` : ` ${t("app-token-no-expiry")}`}
        ${link.hasPassword && html` <span class="badge">🔒 ${t("app-share-password-badge")}</span>`}${link.notifyOnView && html` <span class="badge">🔔 ${t("app-share-notifies")}</span>`}</div>
      <div class="button-row">
        ${
          link.isRevoked
            ? html`<button class="btn small" disabled=${busy} onClick=${() => act(() => call(client.api.secure.links({ id: link.id }).restore.patch()), t("app-share-restored"))}>${t("app-restore")}</button>`
            : html`<button class="btn small" disabled=${busy} onClick=${() => act(() => call(client.api.secure.links({ id: link.id }).revoke.patch()), t("app-share-revoked"))}>${t("app-revoke")}</button>`
        }
        ${
          link.hasPassword
            ? html`<button class="btn small" disabled=${busy} onClick=${() => act(() => call(client.api.secure.links({ id: link.id }).patch({ password: null })), t("app-password-removed"))}>${t("app-form-password-remove")}</button>`
            : password === null &&
              html`<button class="btn small" disabled=${busy} onClick=${() => setPassword("")}>${t("app-password-set-button")}</button>`
        }
        <label class="check"><input type="checkbox" checked=${!!link.notifyOnView} disabled=${busy}
          onChange=${(e: Event) => act(() => call(client.api.secure.links({ id: link.id }).patch({ notifyOnView: inputChecked(e) })), inputChecked(e) ? t("app-share-notify-on") : t("app-share-notify-off"))} /> ${t("app-share-notify")}</label>
        <button class="btn small danger" disabled=${busy} onClick=${() => confirmed(t("app-share-delete-confirm")) && act(() => call(client.api.secure.links({ id: link.id }).delete()), t("app-link-deleted"))}>${t("app-delete")}</button>
      </div>
      ${
        password !== null &&
        html`<form class="button-row" onSubmit=${savePassword}>
        <input type="password" aria-label=${t("app-password-new")} minlength="4" maxlength="128" required autocomplete="new-password" value=${password}
          onInput=${(e: Event) => setPassword(inputValue(e))} />
        <button class="btn small primary" disabled=${busy}>${t("app-password-save")}</button>
        <button type="button" class="btn small" onClick=${() => setPassword(null)}>${t("app-cancel")}</button></form>`
      }
    </div>
  </div>`;
}

function NewLink({ fileId, onCreated }: { fileId: number; onCreated: () => void }) {
  const [hours, setHours] = useState("24");
  const [views, setViews] = useState("");
  const [password, setPassword] = useState("");
  const [notify, setNotify] = useState(false);
  const [created, setCreated] = useState<SecureLink | null>(null);
  const { busy, run } = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const body = {
        fileId,
        expiresInHours: Number(hours),
        notifyOnView: notify,
        ...(views ? { maxViews: Number(views) } : {}),
        ...(password ? { password } : {}),
      };
      setCreated(await call(client.api.secure.links.post(body)));
      setPassword(""); // a password is not kept around in the form once it is set
      onCreated();
    }, t("app-share-created"));
  };
  return html`<form class="card form" onSubmit=${submit}>
    <h2>${t("app-share-new")}</h2>
    <div class="grid2">
      <label class="field"><span class="label">${t("app-share-hours")}</span><input type="number" name="expiresInHours" min="1" max="8760" required value=${hours} onInput=${(e: Event) => setHours(inputValue(e))} /></label>
      <label class="field"><span class="label">${t("app-share-max-views")}</span><input type="number" name="maxViews" min="1" placeholder=${t("app-unlimited")} value=${views} onInput=${(e: Event) => setViews(inputValue(e))} /></label>
    </div>
    <label class="field"><span class="label">${t("app-share-password")}</span><input type="password" name="sharePassword" minlength="4" maxlength="128" autocomplete="new-password"
      placeholder=${t("app-none")} value=${password} onInput=${(e: Event) => setPassword(inputValue(e))} /></label>
    <label class="check"><input type="checkbox" name="notifyOnView" checked=${notify} onChange=${(e: Event) => setNotify(inputChecked(e))} /> ${t("app-share-notify-telegram")}</label>
    <button class="btn primary" disabled=${busy}>${t("app-link-create")}</button>
    ${created && html`<div class="row-line new-link"><span class="mono ellipsis" data-testid="new-secure-link">${created.url}</span><${CopyButton} text=${created.url} /></div>`}
  </form>`;
}
