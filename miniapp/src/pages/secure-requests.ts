/** Request links: anyone with the link sends files or texts into one of your folders. */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { linkTo } from "../router";
import { Async, CopyButton, Empty, confirmed, fmtDate, html, useAction, useAsync, inputValue } from "../ui";
import type { Folder } from "./secure";
import type { SecureRequest } from "../../../api/secure/model";
import { t } from "../i18n";

type RequestLink = SecureRequest;

/** A request's state → its badge class; the text is `app-request-state-<state>`. */
const STATE: Record<RequestLink["state"], string> = {
  active: "badge ok",
  inactive: "badge muted",
  expired: "badge muted",
  full: "badge warn",
};

/**
 * The owner's request link `id`. The public upload's path (`/api/secure/requests/:code/upload`) shares
 * this segment, so Eden's type asks for both parameter names and unites both routes' methods; the path takes
 * the one value given, and the owner's methods (patch, delete) are picked out of the union.
 */
const requestLink = (id: number) =>
  client.api.secure.requests({ id } as { id: number; code: number }) as Extract<
    ReturnType<typeof client.api.secure.requests>,
    { patch: unknown }
  >;

export function RequestsPage() {
  const requests = useAsync(() => call(client.api.secure.requests.get()), []);
  const folders = useAsync(() => call(client.api.secure.folders.get()), []);
  const folderName = (id: number) => folders.data?.find((f) => f.id === id)?.name ?? "";
  return html`<section>
    <header class="page-head"><h1>${t("app-requests")}</h1>
      <a class="btn small" href="/app/secure" onClick=${linkTo("/secure")}>${t("app-folders")}</a></header>
    <p class="hint">${t("app-requests-hint")}</p>
    <${Async} state=${requests}>${(list: RequestLink[]) =>
      list.length === 0
        ? html`<${Empty}>${t("app-requests-none")}<//>`
        : html`<ul class="list">${list.map((r) => html`<li key=${r.id}><${RequestRow} request=${r} folder=${folderName(r.folderId)} onChange=${requests.reload} /></li>`)}</ul>`}<//>
    <${Async} state=${folders}>${(list: Folder[]) =>
      list.length === 0
        ? html`<${Empty}>${t("app-requests-need-folder")}<//>`
        : html`<${NewRequest} folders=${list} onCreated=${requests.reload} />`}<//>
  </section>`;
}

function RequestRow({ request: r, folder, onChange }: { request: RequestLink; folder: string; onChange: () => void }) {
  const { busy, run } = useAction();
  const act = (fn: () => Promise<unknown>, msg: string) => run(async () => (await fn(), onChange()), msg);
  const s = { cls: STATE[r.state], text: t(`app-request-state-${r.state}`) };
  return html`<div class="row static" data-code=${r.code}>
    <div class="row-main">
      <div class="row-title">${r.title || t("app-request-untitled")} <span class=${s.cls}>${s.text}</span></div>
      <div class="row-line"><span class="mono ellipsis">${r.url}</span><${CopyButton} text=${r.url} /></div>
      <div class="row-sub">${t("app-request-received", { received: `${r.filesReceived}${r.maxFiles != null ? `/${r.maxFiles}` : ""}`, folder: folder || t("app-request-a-folder") })} ·
        ${r.expiresAt ? ` ${t("app-plan-until", { date: fmtDate(r.expiresAt) })}` : ` ${t("app-token-no-expiry")}`}</div>
      <div class="button-row">
        <button class="btn small" disabled=${busy} onClick=${() => act(() => call(requestLink(r.id).patch({ isActive: !r.isActive })), r.isActive ? t("app-request-turned-off") : t("app-request-turned-on"))}>
          ${r.isActive ? t("app-turn-off") : t("app-turn-on")}</button>
        <button class="btn small danger" disabled=${busy} onClick=${() => confirmed(t("app-request-delete-confirm")) && act(() => call(requestLink(r.id).delete()), t("app-request-deleted"))}>${t("app-delete")}</button>
      </div>
    </div>
  </div>`;
}

function NewRequest({ folders, onCreated }: { folders: Folder[]; onCreated: () => void }) {
  const [folderId, setFolderId] = useState(String(folders[0]!.id));
  const [title, setTitle] = useState("");
  const [hours, setHours] = useState("");
  const [maxFiles, setMaxFiles] = useState("");
  const [created, setCreated] = useState<RequestLink | null>(null);
  const { busy, run } = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const body = {
        folderId: Number(folderId),
        title: title.trim(),
        ...(hours ? { expiresInHours: Number(hours) } : {}),
        ...(maxFiles ? { maxFiles: Number(maxFiles) } : {}),
      };
      setCreated(await call(client.api.secure.requests.post(body)));
      setTitle("");
      onCreated();
    }, t("app-request-created"));
  };
  const input = (set: (v: string) => void) => (e: Event) => set(inputValue(e));
  return html`<form class="card form" onSubmit=${submit}>
    <h2>${t("app-request-new")}</h2>
    <label class="field"><span class="label">${t("app-folder")}</span><select name="folderId" value=${folderId} onChange=${input(setFolderId)}>
      ${folders.map((f) => html`<option value=${f.id}>${f.name}</option>`)}</select></label>
    <label class="field"><span class="label">${t("app-form-title")}</span><input name="requestTitle" maxlength="200" placeholder=${t("app-request-title-placeholder")} value=${title} onInput=${input(setTitle)} /></label>
    <div class="grid2">
      <label class="field"><span class="label">${t("app-request-hours")}</span><input type="number" name="requestHours" min="1" max="8784" placeholder=${t("app-no-limit")} value=${hours} onInput=${input(setHours)} /></label>
      <label class="field"><span class="label">${t("app-request-max")}</span><input type="number" name="maxFiles" min="1" max="10000" placeholder=${t("app-no-limit")} value=${maxFiles} onInput=${input(setMaxFiles)} /></label>
    </div>
    <button class="btn primary" disabled=${busy}>${t("app-request-create")}</button>
    ${created && html`<div class="row-line new-link"><span class="mono ellipsis" data-testid="new-request-link">${created.url}</span><${CopyButton} text=${created.url} /></div>`}
  </form>`;
}
