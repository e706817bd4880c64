/** Settings: account and identities, plan and limits, linking email/Telegram, passkeys, API tokens, custom domains. */
import { useEffect, useRef, useState } from "preact/hooks";
import { get, inTelegram, post, signOut } from "../api";
import { navigate } from "../router";
import { Async, ErrorBox, errorText, fmtDate, html, toast, useAsync } from "../ui";
import { appConfig, mountLoginWidget, type WidgetUser } from "../widget";
import { PasskeysCard, TokensCard } from "./settings-security";
import { DomainsCard } from "./settings-domains";
import type { AccountUsage, Me } from "../../../api/auth/model";



const PROVIDERS: Record<string, string> = { telegram: "Telegram", email: "Email", passkey: "Passkey" };

function identityLabel(i: Me["identities"][number], u: Me["user"]): string {
  if (i.provider === "telegram") return u.username ? `@${u.username}` : `id ${i.subject}`;
  if (i.provider === "passkey") return i.name || "unnamed";
  return i.subject;
}

const LIMIT_LABELS: Record<string, string> = { links: "Links", trackers: "Trackers", secureFiles: "Secure files", storageMB: "Storage (MB)" };

/** Signing out on purpose leaves for the sign-in page, so the next sign-in starts at the links page. */
function leave() {
  signOut();
  navigate("/signin", true);
}

export function SettingsPage() {
  const me = useAsync(() => get<Me>("/api/auth/me"), []);
  const usage = useAsync(() => get<AccountUsage>("/api/account/usage"), []);
  // a link may merge another account into this one: its links, files and plan now count here
  const linked = () => {
    me.reload();
    usage.reload();
  };
  return html`<section>
    <h1>Settings</h1>
    <div class="card"><h2>Account</h2><${Async} state=${me}>${(m: Me) => html`
      <p><strong>${m.user.firstName || m.user.username || m.user.email || `User ${m.user.id}`}</strong>${m.user.username ? html` <span class="hint">@${m.user.username}</span>` : null}</p>
      <h3>Sign-in methods</h3>
      <ul class="list compact" data-testid="identities">${m.identities.map((i) => html`<li class="row-line"><span>${PROVIDERS[i.provider] ?? i.provider}</span>
        <span class="mono ellipsis">${identityLabel(i, m.user)}</span></li>`)}</ul>
      ${!m.identities.some((i) => i.provider === "email") && html`<${LinkEmail} onLinked=${linked} />`}
      ${!m.identities.some((i) => i.provider === "telegram") && !inTelegram() && html`<${LinkTelegram} onLinked=${linked} />`}`}<//>
    </div>
    <div class="card"><h2>Plan and limits</h2><${Async} state=${usage}>${(u: AccountUsage) => html`
      <p>Plan: <strong data-testid="plan">${u.subscription.plan}</strong>${u.subscription.expiresAt ? ` until ${fmtDate(u.subscription.expiresAt)}` : ""}</p>
      ${(Object.entries(u.limits) as [keyof AccountUsage["limits"], number][]).map(([k, max]) => {
        const used = u.usage[k] ?? 0;
        return html`<div class="meter"><div class="row-line"><span>${LIMIT_LABELS[k] ?? k}</span><span>${used} / ${max}</span></div>
          <div class="progress thin"><div class="bar" style=${`width:${Math.min(100, (used / Math.max(1, max)) * 100)}%`}></div></div></div>`;
      })}`}<//>
    </div>
    <${PasskeysCard} />
    <${TokensCard} />
    <${DomainsCard} />
    ${!inTelegram() && html`<button class="btn danger" onClick=${leave}>Sign out</button>`}
  </section>`;
}

function LinkEmail({ onLinked }: { onLinked: () => void }) {
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      if (!sent) {
        await post("/api/auth/email/send-link-otp", { email: email.trim() });
        setSent(true);
      } else {
        const r = await post("/api/auth/email/verify-link-otp", { email: email.trim(), code: code.trim() });
        toast(r.merged ? "Email linked; accounts merged" : "Email linked");
        onLinked();
      }
    } catch (err) {
      setError(errorText(err));
    }
  };
  return html`<form class="form sub" onSubmit=${submit}><h3>Link an email</h3>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${!sent ? html`<input type="email" required name="linkEmail" placeholder="you@example.com" aria-label="Email" value=${email} onInput=${(e: any) => setEmail(e.currentTarget.value)} />`
      : html`<p class="hint">Enter the code sent to ${email}. If the email already has an account, the accounts are merged.</p>
        <input name="linkCode" inputmode="numeric" maxlength="6" required aria-label="Code" value=${code} onInput=${(e: any) => setCode(e.currentTarget.value)} />`}
    <button class="btn">${sent ? "Confirm" : "Send code"}</button></form>`;
}

function LinkTelegram({ onLinked }: { onLinked: () => void }) {
  const [open, setOpen] = useState(false);
  const [msg, setMsg] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open || !box.current) return;
    appConfig().then((c) => {
      if (!c.botId) return setMsg("Telegram linking is not configured on this server.");
      mountLoginWidget(box.current!, c.botId, async (u: WidgetUser) => {
        setError(null);
        try {
          const body = Object.fromEntries(Object.entries(u).map(([k, v]) => [k, String(v)]));
          await post("/api/auth/msgr/link-widget", body);
          toast("Telegram account linked");
          onLinked();
        } catch (e) {
          setError(errorText(e));
        }
      }, setError);
    }, (e) => setError(errorText(e)));
  }, [open]);
  return html`<div class="sub"><h3>Link Telegram</h3>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${!open ? html`<button class="btn" onClick=${() => setOpen(true)}>Link a Telegram account</button>` : html`<div ref=${box} class="widget-box"></div>`}
    ${msg && html`<p class="hint">${msg}</p>`}</div>`;
}
