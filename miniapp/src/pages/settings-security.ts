/** Settings cards for passkeys and API tokens. */
import { useState } from "preact/hooks";
import { del, get, post } from "../api";
import { listPasskeys, registerPasskey, removePasskey } from "../passkey";
import { SCOPES } from "../../../core/tokens/scopes";
import { Async, CopyButton, Empty, confirmed, fmtDate, html, useAction, useAsync } from "../ui";
import type { ApiToken } from "../../../api/tokens/model";

export function PasskeysCard() {
  const keys = useAsync(() => listPasskeys(), []);
  const [name, setName] = useState("");
  const { busy, run } = useAction();
  const add = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      await registerPasskey(name.trim() || undefined);
      setName("");
      keys.reload();
    }, "Passkey added");
  };
  return html`<div class="card"><h2>Passkeys</h2>
    <${Async} state=${keys}>${(list: any[]) => list.length === 0 ? html`<${Empty}>No passkeys yet.<//>`
      : html`<ul class="list compact" data-testid="passkeys">${list.map((k) => html`<li class="row-line"><span>${k.name ?? k.deviceType ?? "Passkey"}
          <small class="hint"> added ${fmtDate(k.createdAt)}${k.lastUsedAt ? `, used ${fmtDate(k.lastUsedAt)}` : ""}</small></span>
        <button class="btn small danger" disabled=${busy} onClick=${() => confirmed("Remove this passkey?") && run(async () => (await removePasskey(k.id), keys.reload()), "Passkey removed")}>Remove</button></li>`)}</ul>`}<//>
    <form class="inline" onSubmit=${add}><input name="passkeyName" placeholder="Name (e.g. Laptop)" aria-label="Passkey name" value=${name} onInput=${(e: any) => setName(e.currentTarget.value)} />
      <button class="btn" disabled=${busy}>Add a passkey</button></form></div>`;
}

type Token = ApiToken;

export function TokensCard() {
  const tokens = useAsync(() => get<Token[]>("/api/tokens"), []);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>(["*"]);
  const [days, setDays] = useState("");
  const [secret, setSecret] = useState<string | null>(null);
  const { busy, run } = useAction();
  const toggle = (s: string) =>
    setScopes((cur) => {
      if (s === "*") return ["*"];
      const next = cur.includes(s) ? cur.filter((x) => x !== s) : [...cur.filter((x) => x !== "*"), s];
      return next.length ? next : ["*"];
    });
  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const r = await post("/api/tokens", { name: name.trim(), scopes: scopes.length ? scopes : ["*"], ...(days ? { expiresInDays: Number(days) } : {}) });
      setSecret(r.token);
      setName("");
      setDays("");
      setScopes(["*"]);
      tokens.reload();
    });
  };
  return html`<div class="card"><h2>API tokens</h2>
    ${secret && html`<div class="secret" role="status"><p>Copy this token now; it will not be shown again.</p>
      <div class="row-line"><code class="mono ellipsis" data-testid="token-secret">${secret}</code><${CopyButton} text=${secret} /></div>
      <button class="link-btn" onClick=${() => setSecret(null)}>Done</button></div>`}
    <${Async} state=${tokens}>${(list: Token[]) => list.length === 0 ? html`<${Empty}>No API tokens.<//>`
      : html`<ul class="list compact" data-testid="tokens">${list.map((t) => html`<li class="row-line"><span><strong>${t.name}</strong>
          <small class="hint"> ${t.scopes.join(" ")} · ${t.expiresAt ? `expires ${fmtDate(t.expiresAt)}` : "no expiry"}</small></span>
        <button class="btn small danger" disabled=${busy} onClick=${() => confirmed(`Revoke “${t.name}”?`) && run(async () => (await del(`/api/tokens/${t.id}`), tokens.reload()), "Token revoked")}>Revoke</button></li>`)}</ul>`}<//>
    <form class="form sub" onSubmit=${create}><h3>New token</h3>
      <input name="tokenName" required maxlength="100" placeholder="Name (e.g. CI)" aria-label="Token name" value=${name} onInput=${(e: any) => setName(e.currentTarget.value)} />
      <div class="chips" role="group" aria-label="Scopes">${SCOPES.map((s) => html`<button type="button" class=${scopes.includes(s) ? "chip on" : "chip"} aria-pressed=${scopes.includes(s)} onClick=${() => toggle(s)}>${s}</button>`)}</div>
      <input type="number" name="expiresInDays" min="1" max="3650" placeholder="Expires in days (optional)" aria-label="Expires in days" value=${days} onInput=${(e: any) => setDays(e.currentTarget.value)} />
      <button class="btn" disabled=${busy}>Create token</button></form></div>`;
}
