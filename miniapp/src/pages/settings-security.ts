/** Settings cards for passkeys and API tokens. */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { listPasskeys, registerPasskey, removePasskey } from "../passkey";
import { SCOPES } from "../../../core/tokens/scopes";
import { Async, CopyButton, Empty, confirmed, fmtDate, html, useAction, useAsync, inputValue, type Loaded } from "../ui";
import type { ApiToken } from "../../../api/tokens/model";
import { t } from "../i18n";

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
    }, t("app-passkey-added"));
  };
  return html`<div class="card"><h2>${t("app-passkeys")}</h2>
    <${Async} state=${keys}>${(list: Loaded<typeof keys>) =>
      list.length === 0
        ? html`<${Empty}>${t("app-passkeys-none")}<//>`
        : html`<ul class="list compact" data-testid="passkeys">${list.map(
            (k) => html`<li class="row-line"><span>${k.name ?? k.deviceType ?? t("app-provider-passkey")}
          <small class="hint"> ${t("app-passkey-added-on", { date: fmtDate(k.createdAt) })}${k.lastUsedAt ? t("app-passkey-used-on", { date: fmtDate(k.lastUsedAt) }) : ""}</small></span>
        <button class="btn small danger" disabled=${busy} onClick=${() => confirmed(t("app-passkey-remove-confirm")) && run(async () => (await removePasskey(k.id), keys.reload()), t("app-passkey-removed"))}>${t("app-remove")}</button></li>`,
          )}</ul>`}<//>
    <form class="inline" onSubmit=${add}><input name="passkeyName" placeholder=${t("app-passkey-name-placeholder")} aria-label=${t("app-passkey-name")} value=${name} onInput=${(e: Event) => setName(inputValue(e))} />
      <button class="btn" disabled=${busy}>${t("app-passkey-add")}</button></form></div>`;
}

type Token = ApiToken;

export function TokensCard() {
  const tokens = useAsync(() => call(client.api.tokens.get()), []);
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
      const r = await call(
        client.api.tokens.post({
          name: name.trim(),
          scopes: scopes.length ? scopes : ["*"],
          ...(days ? { expiresInDays: Number(days) } : {}),
        }),
      );
      setSecret(r.token);
      setName("");
      setDays("");
      setScopes(["*"]);
      tokens.reload();
    });
  };
  return html`<div class="card"><h2>${t("app-tokens")}</h2>
    ${
      secret &&
      html`<div class="secret" role="status"><p>${t("app-token-copy-now")}</p>
      <div class="row-line"><code class="mono ellipsis" data-testid="token-secret">${secret}</code><${CopyButton} text=${secret} /></div>
      <button class="link-btn" onClick=${() => setSecret(null)}>${t("app-done")}</button></div>`
    }
    <${Async} state=${tokens}>${(list: Token[]) =>
      list.length === 0
        ? html`<${Empty}>${t("app-tokens-none")}<//>`
        : html`<ul class="list compact" data-testid="tokens">${list.map(
            (tok) => html`<li class="row-line"><span><strong>${tok.name}</strong>
          <small class="hint"> ${tok.scopes.join(" ")} · ${tok.expiresAt ? t("app-token-expires", { date: fmtDate(tok.expiresAt) }) : t("app-token-no-expiry")}</small></span>
        <button class="btn small danger" disabled=${busy} onClick=${() => confirmed(t("app-token-revoke-confirm", { name: tok.name })) && run(async () => (await call(client.api.tokens({ id: tok.id }).delete()), tokens.reload()), t("app-token-revoked"))}>${t("app-revoke")}</button></li>`,
          )}</ul>`}<//>
    <form class="form sub" onSubmit=${create}><h3>${t("app-token-new")}</h3>
      <input name="tokenName" required maxlength="100" placeholder=${t("app-token-name-placeholder")} aria-label=${t("app-token-name")} value=${name} onInput=${(e: Event) => setName(inputValue(e))} />
      <div class="chips" role="group" aria-label=${t("app-token-scopes")}>${SCOPES.map((s) => html`<button type="button" class=${scopes.includes(s) ? "chip on" : "chip"} aria-pressed=${scopes.includes(s)} onClick=${() => toggle(s)}>${s}</button>`)}</div>
      <input type="number" name="expiresInDays" min="1" max="3650" placeholder=${t("app-token-days-placeholder")} aria-label=${t("app-token-days")} value=${days} onInput=${(e: Event) => setDays(inputValue(e))} />
      <button class="btn" disabled=${busy}>${t("app-token-create")}</button></form></div>`;
}
