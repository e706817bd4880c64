/** One link: its URLs, edit/delete/pause, summary, QR and export actions, and its analytics. */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { linkTo, navigate } from "../router";
import { Async, CopyButton, confirmed, fmtDate, html, useAction, useAsync, inputValue, type Loaded } from "../ui";
import { appConfig } from "../widget";
import { Analytics } from "./link-analytics";
import { t } from "../i18n";
import type { LinkDetails } from "../../../api/links/model";

/** A link as its page shows it. */
type Link = LinkDetails;

export function LinkDetail({ id }: { id: string }) {
  const link = useAsync(() => call(client.api.links({ id }).get()), [id]);
  const cfg = useAsync(() => appConfig(), []);
  const [period, setPeriod] = useState("30d");
  return html`<section><${Async} state=${link}>${(l: Loaded<typeof link>) => {
    const url = l.trackingUrl ?? `${cfg.data?.shortUrl ?? ""}/${l.code}`;
    return html`
      <header class="page-head"><h1 class="ellipsis">${l.title || l.code}</h1>
        <a class="btn small" href=${`/app/links/${id}/edit`} onClick=${linkTo(`/links/${id}/edit`)}>${t("app-edit")}</a></header>
      <div class="card">
        <div class="row-line"><a class="mono ellipsis" href=${url} target="_blank" rel="noopener" data-testid="tracking-url">${url}</a><${CopyButton} text=${url} /></div>
        <div class="row-sub ellipsis">→ ${l.original_url}</div>
        ${l.is_active === false && html`<p class="badge muted">${t("app-link-paused-note")}</p>`}
        ${l.webhook_url && html`<p class="hint">${t(l.webhook_enabled ? "app-link-webhook-on" : "app-link-webhook-off", { method: l.webhook_method, url: l.webhook_url })}${l.webhook_failures ? t("app-link-webhook-failures", { count: l.webhook_failures }) : ""}</p>`}
        <${LinkActions} link=${l} url=${url} period=${period} onChange=${(x: Partial<Link>) => link.setData({ ...l, ...x })} />
      </div>
      <${Placements} id=${id} />
      <${Analytics} id=${id} period=${period} setPeriod=${setPeriod} />`;
  }}<//></section>`;
}

/** Where the link was posted, as the owner's trackers with “posts with my links” saw it. */
function Placements({ id }: { id: string }) {
  const state = useAsync(() => call(client.api.links({ id }).placements.get()), [id]);
  const p = state.data;
  if (!p) return null;
  if (!p.posts) return html`<p class="hint" data-testid="placements">${t("app-placements-none")}</p>`;
  const where = t(p.posts > p.channels ? "app-placements-posts" : "app-placements", { channels: p.channels, posts: p.posts });
  return html`<div class="card" data-testid="placements"><h2>${where}</h2>
    <ul class="list compact">${p.items.map(
      (x) => html`<li class="row-line">
      ${x.post_url ? html`<a class="ellipsis" href=${x.post_url} target="_blank" rel="noopener">${t("app-placement-post", { chat: x.source_title ?? `@${x.source_username}`, post: x.source_message_id })}</a>` : html`<span class="ellipsis">${x.source_title ?? t("app-placement-private")}</span>`}
      <small class="hint">${fmtDate(x.detected_at)}</small></li>`,
    )}</ul></div>`;
}

function LinkActions({ link, url, period, onChange }: { link: Link; url: string; period: string; onChange: (x: Partial<Link>) => void }) {
  const { busy, run } = useAction();
  const [qr, setQr] = useState<string | null>(null);
  const [format, setFormat] = useState("csv");
  const [exportMsg, setExportMsg] = useState<string | null>(null);

  const summary = () => run(() => call(client.api.links["send-summary"].post({ period, linkId: link.id })), t("app-summary-sent"));
  const makeQr = () =>
    run(async () => {
      const QR = await import("qrcode");
      setQr(await QR.toDataURL(url, { width: 512, margin: 2 }));
    });
  const sendQr = () =>
    run(
      () => call(client.api.links({ id: link.id })["share-qr"].post({ qrImage: qr!.replace(/^data:image\/png;base64,/, "") })),
      t("app-qr-sent"),
    );
  const exportClicks = () =>
    run(async () => {
      const r = await call(client.api.links({ id: link.id }).export.post({ format, period }));
      // worded here from the answer's figures: the API's `message` is English
      setExportMsg(r.ok ? t("app-exported", { rows: r.rows }) : t("app-export-empty"));
    });
  const toggleActive = () =>
    run(async () => {
      await call(client.api.links({ id: link.id }).patch({ is_active: link.is_active === false }));
      onChange({ is_active: link.is_active === false });
    });
  const remove = () =>
    confirmed(t("app-link-delete-confirm")) &&
    run(async () => {
      await call(client.api.links({ id: link.id }).delete());
      navigate("/links", true);
    }, t("app-link-deleted"));

  return html`<div class="button-row">
      <button class="btn small" disabled=${busy} onClick=${summary}>${t("app-send-summary")}</button>
      <button class="btn small" disabled=${busy} onClick=${makeQr}>${t("app-qr")}</button>
      <span class="inline"><select aria-label=${t("app-export-format")} value=${format} onChange=${(e: Event) => setFormat(inputValue(e))}>
        <option value="csv">CSV</option><option value="xlsx">Excel</option><option value="pdf">PDF</option></select>
        <button class="btn small" disabled=${busy} onClick=${exportClicks}>${t("app-export")}</button></span>
      <button class="btn small" disabled=${busy} onClick=${toggleActive}>${link.is_active === false ? t("app-activate") : t("app-pause")}</button>
      <button class="btn small danger" disabled=${busy} onClick=${remove}>${t("app-delete")}</button>
    </div>
    ${exportMsg && html`<p class="note">${exportMsg}</p>`}
    ${
      qr &&
      html`<div class="qr"><img src=${qr} alt=${t("app-qr-alt", { url })} width="200" height="200" />
      <div class="button-row"><a class="btn small" href=${qr} download=${`${link.code}.png`}>${t("app-download")}</a>
        <button class="btn small" disabled=${busy} onClick=${sendQr}>${t("app-send-to-bot")}</button>
        <button class="btn small" onClick=${() => setQr(null)}>${t("app-close")}</button></div></div>`
    }`;
}
