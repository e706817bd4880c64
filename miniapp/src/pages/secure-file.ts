/** One secure file: its content summary and its share links (create, copy, revoke, restore, delete). */
import { useState } from "preact/hooks";
import { del, get, patch, post } from "../api";
import { navigate } from "../router";
import { Async, CopyButton, Empty, confirmed, fmtBytes, fmtDate, html, useAction, useAsync } from "../ui";
import type { SecureFile, SecureLink } from "../../../api/secure/model";



const STATE: Record<string, { text: string; cls: string }> = {
  active: { text: "active", cls: "badge ok" },
  revoked: { text: "revoked", cls: "badge danger" },
  paused: { text: "folder paused", cls: "badge warn" },
  expired: { text: "expired", cls: "badge muted" },
  exhausted: { text: "used up", cls: "badge muted" },
};

/** The server's state when given, else derived from the spec's fields. */
function status(l: SecureLink): { text: string; cls: string } {
  if (l.state && STATE[l.state]) return STATE[l.state]!;
  if (l.isRevoked) return { text: "revoked", cls: "badge danger" };
  if (l.expiresAt && new Date(l.expiresAt).getTime() <= Date.now()) return { text: "expired", cls: "badge muted" };
  if (l.maxViews != null && l.viewCount >= l.maxViews) return { text: "used up", cls: "badge muted" };
  return { text: "active", cls: "badge ok" };
}

export function FilePage({ id }: { id: string }) {
  const file = useAsync(() => get<SecureFile>(`/api/secure/files/${id}`), [id]);
  const links = useAsync(() => get<SecureLink[]>(`/api/secure/links?fileId=${id}`), [id]);
  const { busy, run } = useAction();
  const remove = () => confirmed("Delete this file and its links?") &&
    run(async () => {
      const folderId = file.data?.folderId;
      await del(`/api/secure/files/${id}`);
      navigate(folderId ? `/secure/folders/${folderId}` : "/secure", true);
    }, "File deleted");

  return html`<section>
    <${Async} state=${file}>${(f: any) => html`
      <header class="page-head"><h1 class="ellipsis">${f.name}</h1>
        <button class="btn small danger" disabled=${busy} onClick=${remove}>Delete</button></header>
      <div class="card">
        ${f.description && html`<p>${f.description}</p>`}
        <p class="hint">${f.contentType}${f.mimeType ? ` · ${f.mimeType}` : ""}${f.fileSize != null ? ` · ${fmtBytes(f.fileSize)}` : ""} · added ${fmtDate(f.createdAt)}</p>
        ${f.textContent && html`<pre class="note-text">${f.textContent}</pre>`}
        ${f.hasContent === false && html`<p class="badge warn">No content uploaded: links to this file cannot be opened.</p>`}
      </div>
      <h2>Share links</h2>
      <${Async} state=${links}>${(list: SecureLink[]) => list.length === 0
        ? html`<${Empty}>No links yet. Create one below; anyone with it can view the file until it expires.<//>`
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
    if (await act(() => patch(`/api/secure/links/${link.id}`, { password }), "Password set")) setPassword(null);
  };
  return html`<div class="row static" data-code=${link.code}>
    <div class="row-main">
      <div class="row-line"><span class="mono ellipsis">${link.url}</span><${CopyButton} text=${link.url} /></div>
      <div class="row-sub"><span class=${s.cls}>${s.text}</span> ${link.viewCount}${link.maxViews != null ? `/${link.maxViews}` : ""} views ·
        ${link.expiresAt ? ` expires ${fmtDate(link.expiresAt)}` : " no expiry"}
        ${link.hasPassword && html` <span class="badge">🔒 password</span>`}${link.notifyOnView && html` <span class="badge">🔔 notifies</span>`}</div>
      <div class="button-row">
        ${link.isRevoked
          ? html`<button class="btn small" disabled=${busy} onClick=${() => act(() => patch(`/api/secure/links/${link.id}/restore`), "Link restored")}>Restore</button>`
          : html`<button class="btn small" disabled=${busy} onClick=${() => act(() => patch(`/api/secure/links/${link.id}/revoke`), "Link revoked")}>Revoke</button>`}
        ${link.hasPassword
          ? html`<button class="btn small" disabled=${busy} onClick=${() => act(() => patch(`/api/secure/links/${link.id}`, { password: null }), "Password removed")}>Remove password</button>`
          : password === null && html`<button class="btn small" disabled=${busy} onClick=${() => setPassword("")}>Set password</button>`}
        <label class="check"><input type="checkbox" checked=${!!link.notifyOnView} disabled=${busy}
          onChange=${(e: any) => act(() => patch(`/api/secure/links/${link.id}`, { notifyOnView: e.currentTarget.checked }), e.currentTarget.checked ? "You will be notified of each view" : "View notifications off")} /> Notify me of views</label>
        <button class="btn small danger" disabled=${busy} onClick=${() => confirmed("Delete this link?") && act(() => del(`/api/secure/links/${link.id}`), "Link deleted")}>Delete</button>
      </div>
      ${password !== null && html`<form class="button-row" onSubmit=${savePassword}>
        <input type="password" aria-label="New password" minlength="4" maxlength="128" required autocomplete="new-password" value=${password}
          onInput=${(e: any) => setPassword(e.currentTarget.value)} />
        <button class="btn small primary" disabled=${busy}>Save password</button>
        <button type="button" class="btn small" onClick=${() => setPassword(null)}>Cancel</button></form>`}
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
      const body: Record<string, number | string | boolean> = { fileId, expiresInHours: Number(hours), notifyOnView: notify };
      if (views) body.maxViews = Number(views);
      if (password) body.password = password;
      setCreated(await post<SecureLink>("/api/secure/links", body));
      setPassword(""); // a password is not kept around in the form once it is set
      onCreated();
    }, "Link created");
  };
  return html`<form class="card form" onSubmit=${submit}>
    <h2>New share link</h2>
    <div class="grid2">
      <label class="field"><span class="label">Expires in (hours)</span><input type="number" name="expiresInHours" min="1" max="8760" required value=${hours} onInput=${(e: any) => setHours(e.currentTarget.value)} /></label>
      <label class="field"><span class="label">Max views</span><input type="number" name="maxViews" min="1" placeholder="unlimited" value=${views} onInput=${(e: any) => setViews(e.currentTarget.value)} /></label>
    </div>
    <label class="field"><span class="label">Password (optional)</span><input type="password" name="sharePassword" minlength="4" maxlength="128" autocomplete="new-password"
      placeholder="none" value=${password} onInput=${(e: any) => setPassword(e.currentTarget.value)} /></label>
    <label class="check"><input type="checkbox" name="notifyOnView" checked=${notify} onChange=${(e: any) => setNotify(e.currentTarget.checked)} /> Notify me in Telegram of each view</label>
    <button class="btn primary" disabled=${busy}>Create link</button>
    ${created && html`<div class="row-line new-link"><span class="mono ellipsis" data-testid="new-secure-link">${created.url}</span><${CopyButton} text=${created.url} /></div>`}
  </form>`;
}
