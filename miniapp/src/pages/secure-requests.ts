/** Request links: anyone with the link sends files or texts into one of your folders. */
import { useState } from "preact/hooks";
import { del, get, patch, post } from "../api";
import { linkTo } from "../router";
import { Async, CopyButton, Empty, confirmed, fmtDate, html, useAction, useAsync } from "../ui";
import type { Folder } from "./secure";
import type { SecureRequest } from "../../../api/secure/model";

type RequestLink = SecureRequest;

const STATE: Record<RequestLink["state"], { text: string; cls: string }> = {
  active: { text: "open", cls: "badge ok" },
  inactive: { text: "turned off", cls: "badge muted" },
  expired: { text: "expired", cls: "badge muted" },
  full: { text: "full", cls: "badge warn" },
};

export function RequestsPage() {
  const requests = useAsync(() => get<RequestLink[]>("/api/secure/requests"), []);
  const folders = useAsync(() => get<Folder[]>("/api/secure/folders"), []);
  const folderName = (id: number) => folders.data?.find((f) => f.id === id)?.name ?? "";
  return html`<section>
    <header class="page-head"><h1>Requests</h1>
      <a class="btn small" href="/app/secure" onClick=${linkTo("/secure")}>Folders</a></header>
    <p class="hint">A request link lets anyone, without an account, send you files (up to 10 MB each) or texts. They land in the folder you choose and in your Telegram chat.</p>
    <${Async} state=${requests}>${(list: RequestLink[]) => list.length === 0
      ? html`<${Empty}>No request links yet. Create one below and send it to whoever should send you something.<//>`
      : html`<ul class="list">${list.map((r) => html`<li key=${r.id}><${RequestRow} request=${r} folder=${folderName(r.folderId)} onChange=${requests.reload} /></li>`)}</ul>`}<//>
    <${Async} state=${folders}>${(list: Folder[]) => list.length === 0
      ? html`<${Empty}>Create a folder first: request links put what they receive into a folder.<//>`
      : html`<${NewRequest} folders=${list} onCreated=${requests.reload} />`}<//>
  </section>`;
}

function RequestRow({ request: r, folder, onChange }: { request: RequestLink; folder: string; onChange: () => void }) {
  const { busy, run } = useAction();
  const act = (fn: () => Promise<unknown>, msg: string) => run(async () => (await fn(), onChange()), msg);
  const s = STATE[r.state];
  return html`<div class="row static" data-code=${r.code}>
    <div class="row-main">
      <div class="row-title">${r.title || "Untitled request"} <span class=${s.cls}>${s.text}</span></div>
      <div class="row-line"><span class="mono ellipsis">${r.url}</span><${CopyButton} text=${r.url} /></div>
      <div class="row-sub">${r.filesReceived}${r.maxFiles != null ? `/${r.maxFiles}` : ""} received · into ${folder || "a folder"} ·
        ${r.expiresAt ? ` until ${fmtDate(r.expiresAt)}` : " no expiry"}</div>
      <div class="button-row">
        <button class="btn small" disabled=${busy} onClick=${() => act(() => patch(`/api/secure/requests/${r.id}`, { isActive: !r.isActive }), r.isActive ? "Request turned off" : "Request turned on")}>
          ${r.isActive ? "Turn off" : "Turn on"}</button>
        <button class="btn small danger" disabled=${busy} onClick=${() => confirmed("Delete this request link? What it received stays in the folder.") && act(() => del(`/api/secure/requests/${r.id}`), "Request deleted")}>Delete</button>
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
      const body: Record<string, unknown> = { folderId: Number(folderId), title: title.trim() };
      if (hours) body.expiresInHours = Number(hours);
      if (maxFiles) body.maxFiles = Number(maxFiles);
      setCreated(await post<RequestLink>("/api/secure/requests", body));
      setTitle("");
      onCreated();
    }, "Request link created");
  };
  const input = (set: (v: string) => void) => (e: any) => set(e.currentTarget.value);
  return html`<form class="card form" onSubmit=${submit}>
    <h2>New request link</h2>
    <label class="field"><span class="label">Folder</span><select name="folderId" value=${folderId} onChange=${input(setFolderId)}>
      ${folders.map((f) => html`<option value=${f.id}>${f.name}</option>`)}</select></label>
    <label class="field"><span class="label">Title</span><input name="requestTitle" maxlength="200" placeholder="What should they send?" value=${title} onInput=${input(setTitle)} /></label>
    <div class="grid2">
      <label class="field"><span class="label">Open for (hours)</span><input type="number" name="requestHours" min="1" max="8784" placeholder="no limit" value=${hours} onInput=${input(setHours)} /></label>
      <label class="field"><span class="label">Max items</span><input type="number" name="maxFiles" min="1" max="10000" placeholder="no limit" value=${maxFiles} onInput=${input(setMaxFiles)} /></label>
    </div>
    <button class="btn primary" disabled=${busy}>Create request link</button>
    ${created && html`<div class="row-line new-link"><span class="mono ellipsis" data-testid="new-request-link">${created.url}</span><${CopyButton} text=${created.url} /></div>`}
  </form>`;
}
