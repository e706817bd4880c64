/** The team's members: roles (changed by owners and admins), removal, and one-use invitation links. */
import { useState } from "preact/hooks";
import { call, client, currentWorkspace } from "../api";
import { Async, confirmed, CopyButton, fmtDate, html, useAction, useAsync, inputValue } from "../ui";
import { t } from "../i18n";
import type { Workspace, WorkspaceMember as Member } from "../../../api/workspaces/model";

/** What POST /api/workspaces/:id/invites answers (the token is in the link too). */
interface Invitation {
  url: string;
  expires_at: string;
}

const ROLES = ["owner", "admin", "editor", "viewer"] as const;
type Role = (typeof ROLES)[number];

/** The workspace the app acts in, as the account sees it (its role there). */
/** The role picked in a role select (its options are the roles). */
const roleOf = (e: Event) => inputValue(e) as Role;

export function useCurrentWorkspace() {
  return useAsync(async () => {
    const all = await call(client.api.workspaces.get());
    return all.find((w) => w.id === currentWorkspace()) ?? all.find((w) => w.personal)!;
  }, [currentWorkspace()]);
}

export function MembersPage() {
  const ws = useCurrentWorkspace();
  return html`<section>
    <${Async} state=${ws}>${(
      w: Workspace,
    ) => html`<header class="page-head"><h1 class="ellipsis">${w.personal ? t("app-ws-personal") : w.name}</h1></header>
      <${Members} ws=${w} />`}<//>
  </section>`;
}

function Members({ ws }: { ws: Workspace }) {
  const members = useAsync(() => call(client.api.workspaces({ id: ws.id }).members.get()), [ws.id]);
  const { busy, run } = useAction();
  const manages = ws.role === "owner" || ws.role === "admin";
  const grantable: readonly Role[] = ws.role === "owner" ? ROLES : ROLES.slice(1);
  const setRole = (m: Member, role: Role) =>
    run(async () => {
      await call(client.api.workspaces({ id: ws.id }).members({ user_id: m.id }).patch({ role }));
      members.reload();
    }, t("app-ws-role-saved"));
  const remove = (m: Member) =>
    confirmed(t("app-ws-remove-confirm", { name: m.name ?? m.username ?? String(m.id) })) &&
    run(async () => {
      await call(client.api.workspaces({ id: ws.id }).members({ user_id: m.id }).delete());
      members.reload();
    }, t("app-ws-removed"));
  return html`<div class="card"><h2>${t("app-ws-members")}</h2>
    <${Async} state=${members}>${(list: Member[]) =>
      html`<ul class="list compact" data-testid="members">${list.map(
        (m) => html`<li class="row-line" key=${m.id}>
        <span><strong>${m.name ?? (m.username ? `@${m.username}` : `#${m.id}`)}</strong> <span class="hint">${t("app-ws-since", { date: fmtDate(m.addedAt) })}</span></span>
        ${
          manages && (grantable as readonly string[]).includes(m.role)
            ? html`<span class="inline"><select aria-label=${t("app-ws-role")} value=${m.role} disabled=${busy} onChange=${(e: Event) => setRole(m, roleOf(e))}>
                ${grantable.map((r) => html`<option value=${r}>${t(`app-ws-role-${r}`)}</option>`)}</select>
                <button class="btn small danger" disabled=${busy} onClick=${() => remove(m)}>${t("app-ws-remove")}</button></span>`
            : html`<span class="badge muted">${t(`app-ws-role-${m.role}`)}</span>`
        }</li>`,
      )}</ul>`}<//>
    ${manages && html`<${Invite} ws=${ws} grantable=${grantable} />`}
  </div>`;
}

function Invite({ ws, grantable }: { ws: Workspace; grantable: readonly Role[] }) {
  const [role, setRole] = useState<Role>("editor");
  const [made, setMade] = useState<Invitation | null>(null);
  const { busy, run } = useAction();
  const make = () => run(async () => setMade(await call(client.api.workspaces({ id: ws.id }).invites.post({ role }))));
  const share =
    made &&
    `https://t.me/share/url?url=${encodeURIComponent(made.url)}&text=${encodeURIComponent(t("app-ws-share-text", { name: ws.name }))}`;
  return html`<h3>${t("app-ws-invite")}</h3>
    <p class="hint">${t("app-ws-invite-hint")}</p>
    <div class="button-row"><select aria-label=${t("app-ws-role")} value=${role} onChange=${(e: Event) => setRole(roleOf(e))}>
      ${grantable.map((r) => html`<option value=${r}>${t(`app-ws-role-${r}`)}</option>`)}</select>
      <button class="btn" disabled=${busy} onClick=${make}>${t("app-ws-invite-make")}</button></div>
    ${
      made &&
      html`<div class="card" data-testid="invitation"><p class="mono ellipsis">${made.url}</p>
      <p class="hint">${t("app-ws-invite-until", { date: fmtDate(made.expires_at) })}</p>
      <div class="button-row"><${CopyButton} text=${made.url} /><a class="btn small" href=${share} target="_blank" rel="noopener">${t("app-ws-share")}</a></div></div>`
    }`;
}
