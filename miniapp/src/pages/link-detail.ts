/** One link: its URLs, edit/delete/pause, summary, QR and export actions, and its analytics. */
import { useState } from "preact/hooks";
import { del, get, patch, post } from "../api";
import { linkTo, navigate } from "../router";
import { Async, CopyButton, confirmed, html, useAction, useAsync } from "../ui";
import { appConfig } from "../widget";
import { Analytics } from "./link-analytics";
import type { LinkDetails } from "../../../api/links/model";

export function LinkDetail({ id }: { id: string }) {
  const link = useAsync(() => get<LinkDetails>(`/api/links/${id}`), [id]);
  const cfg = useAsync(() => appConfig(), []);
  const [period, setPeriod] = useState("30d");
  return html`<section><${Async} state=${link}>${(l: any) => {
    const url = l.trackingUrl ?? `${cfg.data?.shortUrl ?? ""}/${l.code}`;
    return html`
      <header class="page-head"><h1 class="ellipsis">${l.title || l.code}</h1>
        <a class="btn small" href=${`/app/links/${id}/edit`} onClick=${linkTo(`/links/${id}/edit`)}>Edit</a></header>
      <div class="card">
        <div class="row-line"><a class="mono ellipsis" href=${url} target="_blank" rel="noopener" data-testid="tracking-url">${url}</a><${CopyButton} text=${url} /></div>
        <div class="row-sub ellipsis">→ ${l.original_url}</div>
        ${l.is_active === false && html`<p class="badge muted">Paused: visitors see a “not found” page</p>`}
        ${l.webhook_url && html`<p class="hint">Webhook ${l.webhook_method} ${l.webhook_url}: ${l.webhook_enabled ? "enabled" : "disabled"}${l.webhook_failures ? `, ${l.webhook_failures} failures` : ""}</p>`}
        <${LinkActions} link=${l} url=${url} period=${period} onChange=${(x: any) => link.setData({ ...l, ...x })} />
      </div>
      <${Analytics} id=${id} period=${period} setPeriod=${setPeriod} />`;
  }}<//></section>`;
}

function LinkActions({ link, url, period, onChange }: { link: any; url: string; period: string; onChange: (x: any) => void }) {
  const { busy, run } = useAction();
  const [qr, setQr] = useState<string | null>(null);
  const [format, setFormat] = useState("csv");
  const [exportMsg, setExportMsg] = useState<string | null>(null);

  const summary = () => run(() => post("/api/links/send-summary", { period, linkId: link.id }), "Summary sent to your bot chat");
  const makeQr = () => run(async () => {
    const QR = await import("qrcode");
    setQr(await QR.toDataURL(url, { width: 512, margin: 2 }));
  });
  const sendQr = () => run(() => post(`/api/links/${link.id}/share-qr`, { qrImage: qr!.replace(/^data:image\/png;base64,/, "") }), "QR code sent to your bot chat");
  const exportClicks = () => run(async () => {
    const r = await post(`/api/links/${link.id}/export`, { format, period });
    setExportMsg(r.message ?? `Exported ${r.rows} rows`);
  });
  const toggleActive = () => run(async () => {
    await patch(`/api/links/${link.id}`, { is_active: link.is_active === false });
    onChange({ is_active: link.is_active === false });
  });
  const remove = () => confirmed("Delete this link and all its clicks?") &&
    run(async () => {
      await del(`/api/links/${link.id}`);
      navigate("/links", true);
    }, "Link deleted");

  return html`<div class="button-row">
      <button class="btn small" disabled=${busy} onClick=${summary}>Send summary</button>
      <button class="btn small" disabled=${busy} onClick=${makeQr}>QR code</button>
      <span class="inline"><select aria-label="Export format" value=${format} onChange=${(e: any) => setFormat(e.currentTarget.value)}>
        <option value="csv">CSV</option><option value="xlsx">Excel</option><option value="pdf">PDF</option></select>
        <button class="btn small" disabled=${busy} onClick=${exportClicks}>Export</button></span>
      <button class="btn small" disabled=${busy} onClick=${toggleActive}>${link.is_active === false ? "Activate" : "Pause"}</button>
      <button class="btn small danger" disabled=${busy} onClick=${remove}>Delete</button>
    </div>
    ${exportMsg && html`<p class="note">${exportMsg}</p>`}
    ${qr && html`<div class="qr"><img src=${qr} alt=${`QR code for ${url}`} width="200" height="200" />
      <div class="button-row"><a class="btn small" href=${qr} download=${`${link.code}.png`}>Download</a>
        <button class="btn small" disabled=${busy} onClick=${sendQr}>Send to bot chat</button>
        <button class="btn small" onClick=${() => setQr(null)}>Close</button></div></div>`}`;
}
