/** The workspace switcher above every page: which workspace the app acts in, and its team pages. */
import { call, chooseWorkspace, client, currentWorkspace } from "../api";
import { linkTo, navigate } from "../router";
import { html, useAsync } from "../ui";
import { t } from "../i18n";

export function WorkspaceBar({ path }: { path: string }) {
  const list = useAsync(() => call(client.api.workspaces.get()), []);
  const all = list.data ?? [];
  const chosen = currentWorkspace();
  const current = all.find((w) => w.id === chosen) ?? all.find((w) => w.personal);
  // a workspace the account has left: back to its own
  if (list.error && chosen !== null) chooseWorkspace(null);
  if (!current || all.length < 2) return null;
  const pick = (e: Event) => {
    const id = Number((e.currentTarget as HTMLSelectElement).value);
    chooseWorkspace(all.find((w) => w.id === id)?.personal ? null : id);
    // a page of the other workspace's object would be someone else's: start from the list
    if (/^\/\w+\/\d+/.test(path)) navigate(`/${path.split("/")[1]}`, true);
  };
  return html`<div class="workspace-bar" data-testid="workspace-bar">
    <label class="inline">${t("app-ws-label")}
      <select aria-label=${t("app-ws-label")} value=${String(current.id)} onChange=${pick}>
        ${all.map((w) => html`<option value=${String(w.id)}>${w.personal ? t("app-ws-personal") : w.name} · ${t(`app-ws-role-${w.role}`)}</option>`)}
      </select></label>
    ${
      !current.personal &&
      html`<a href="/app/team" class="btn small" onClick=${linkTo("/team")}>${t("app-ws-members")}</a>
      <a href="/app/team/audit" class="btn small" onClick=${linkTo("/team/audit")}>${t("app-ws-audit")}</a>`
    }
  </div>`;
}
