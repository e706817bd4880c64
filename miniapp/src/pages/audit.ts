/** The workspace's audit log: who changed what and when, filtered by action, member and dates, a page at a time. */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { Async, Empty, fmtDate, html, useAction, useAsync, inputValue } from "../ui";
import { t } from "../i18n";
import type { AuditEntry, Workspace } from "../../../api/workspaces/model";

/** A page of GET /api/workspaces/:id/audit. */
interface AuditPage {
  data: AuditEntry[];
  total: number;
}
import { useCurrentWorkspace } from "./members";

const LIMIT = 50;
/** The areas the action filter offers (`links` matches every `links.*` action). */
const AREAS = ["links", "tags", "pixels", "domains", "secure", "tracking", "channels", "invites", "placements", "tokens", "members"];
/** What an action names (its step before the verb) in words, beyond the areas. */
const NOUNS = [
  ...AREAS,
  "folders",
  "files",
  "requests",
  "workspaces",
  "workspace",
  "conversions",
  "bulk",
  "send_summary",
  "export",
  "postback_keys",
  "postbacks",
  "pause",
  "restore",
  "revoke",
  "matches",
  "deliveries",
  "rotate",
  "audit",
  "join",
  "settings",
  "team_chat",
  "webhooks",
  "shares",
  "trackers",
];

export function AuditPage() {
  const ws = useCurrentWorkspace();
  return html`<section>
    <header class="page-head"><h1>${t("app-ws-audit")}</h1></header>
    <${Async} state=${ws}>${(w: Workspace) => html`<${Entries} ws=${w} />`}<//>
  </section>`;
}

function Entries({ ws }: { ws: Workspace }) {
  const [filter, setFilter] = useState({ action: "", actor: "", from: "", to: "" });
  const [page, setPage] = useState(1);
  const members = useAsync(() => call(client.api.workspaces({ id: ws.id }).members.get()), [ws.id]);
  const query = new URLSearchParams({ page: String(page), limit: String(LIMIT) });
  if (filter.action) query.set("action", filter.action);
  if (filter.actor) query.set("actor", filter.actor);
  // whole days of the reader's calendar: from the start of the first to the end of the last
  if (filter.from) query.set("from", new Date(`${filter.from}T00:00:00`).toISOString());
  if (filter.to) query.set("to", new Date(`${filter.to}T23:59:59.999`).toISOString());
  const entries = useAsync(
    () => call(client.api.workspaces({ id: ws.id }).audit.get({ query: Object.fromEntries(query) })),
    [ws.id, query.toString()],
  );
  const { busy, run } = useAction();
  // the filtered log as a CSV or Excel file in the person's own Telegram chat
  const [format, setFormat] = useState<"csv" | "xlsx">("csv");
  const send = () => {
    const pick = (k: string) => query.get(k) ?? undefined;
    const actor = pick("actor");
    const body = {
      format,
      action: pick("action"),
      actor: actor === undefined ? undefined : Number(actor),
      from: pick("from"),
      to: pick("to"),
    };
    return run(() => call(client.api.workspaces({ id: ws.id }).audit.export.post(body)), t("app-sent-to-chat"));
  };
  const set = (k: keyof typeof filter) => (e: Event) => {
    setFilter({ ...filter, [k]: inputValue(e) });
    setPage(1);
  };
  return html`<div class="filters" data-testid="audit-filters">
      <label>${t("app-ws-audit-action")} <select name="action" value=${filter.action} onChange=${set("action")}>
        <option value="">${t("app-ws-audit-any")}</option>${AREAS.map((a) => html`<option value=${a}>${t(`app-ws-area-${a}`)}</option>`)}</select></label>
      <label>${t("app-ws-audit-member")} <select name="actor" value=${filter.actor} onChange=${set("actor")}>
        <option value="">${t("app-ws-audit-anyone")}</option>${(members.data ?? []).map((m) => html`<option value=${String(m.id)}>${m.name ?? m.username ?? `#${m.id}`}</option>`)}</select></label>
      <label>${t("app-ws-audit-from")} <input type="date" name="from" value=${filter.from} onChange=${set("from")} /></label>
      <label>${t("app-ws-audit-to")} <input type="date" name="to" value=${filter.to} onChange=${set("to")} /></label>
      <span class="inline"><select aria-label=${t("app-export-format")} value=${format} onChange=${(e: Event) => setFormat(inputValue(e) === "xlsx" ? "xlsx" : "csv")}>
        <option value="csv">CSV</option><option value="xlsx">Excel</option></select>
      <button class="btn small" disabled=${busy} onClick=${send}>${t("app-ws-audit-export")}</button></span>
    </div>
    <${Async} state=${entries}>${(p: AuditPage) =>
      p.data.length === 0
        ? html`<${Empty}>${t("app-ws-audit-none")}<//>`
        : html`<div class="table-wrap"><table class="clicks" data-testid="audit"><thead><tr><th>${t("app-ws-audit-when")}</th><th>${t("app-ws-audit-who")}</th><th>${t("app-ws-audit-what")}</th><th>${t("app-ws-audit-subject")}</th></tr></thead>
          <tbody>${p.data.map(
            (e, i) => html`<tr key=${i}><td>${fmtDate(e.at)}</td><td>${e.actor.name ?? t("app-ws-audit-service")}</td>
              <td>${actionWords(e.action)}</td><td class="mono">${e.subject.id ?? ""}</td></tr>`,
          )}</tbody></table></div>
          <div class="button-row">
            <button class="btn small" disabled=${page <= 1} onClick=${() => setPage(page - 1)}>${t("app-ws-audit-newer")}</button>
            <span class="hint">${t("app-ws-audit-count", { count: p.total })}</span>
            <button class="btn small" disabled=${page * LIMIT >= p.total} onClick=${() => setPage(page + 1)}>${t("app-ws-audit-older")}</button>
          </div>`}<//>`;
}

/** `links.create` → "Link · created", `channels.requests.approve` → "Request · approved" (words the files do not know: as they are). */
function actionWords(action: string): string {
  const steps = action.split(".");
  const verb = steps.at(-1) ?? "";
  const noun = steps.at(-2) ?? "";
  const a = NOUNS.includes(noun) ? t(`app-ws-area-${noun}`) : noun;
  const v = t(`app-ws-verb-${verb}`);
  return `${a} · ${v.startsWith("app-ws-verb-") ? verb : v}`;
}
