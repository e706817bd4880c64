/** Settings: account and identities, plan and limits, linking email/Telegram, passkeys, API tokens, custom domains. */
import { useEffect, useRef, useState } from "preact/hooks";
import { call, client, inTelegram, signOut } from "../api";
import { linkTo, navigate } from "../router";
import { Async, ErrorBox, errorText, fmtDate, html, toast, useAction, useAsync, inputValue } from "../ui";
import { appConfig, mountLoginWidget, type WidgetUser } from "../widget";
import { PasskeysCard, TokensCard } from "./settings-security";
import { DomainsCard } from "./settings-domains";
import { fmtNumber, setLanguage, t, type Language } from "../i18n";
import type { AccountUsage, Me } from "../../../api/auth/model";

const PROVIDERS = ["telegram", "email", "passkey"];

function identityLabel(i: Me["identities"][number], u: Me["user"]): string {
  if (i.provider === "telegram") return u.username ? `@${u.username}` : `id ${i.subject}`;
  if (i.provider === "passkey") return i.name || t("app-passkey-unnamed");
  return i.subject;
}

const LIMITS = ["links", "trackers", "secureFiles", "storageMB"];

/** Signing out on purpose leaves for the sign-in page, so the next sign-in starts at the links page. */
function leave() {
  signOut();
  navigate("/signin", true);
}

export function SettingsPage() {
  const me = useAsync(() => call(client.api.auth.me.get()), []);
  const usage = useAsync(() => call(client.api.account.usage.get()), []);
  // a link may merge another account into this one: its links, files and plan now count here
  const linked = () => {
    me.reload();
    usage.reload();
  };
  return html`<section>
    <h1>${t("app-settings-title")}</h1>
    <${LanguageCard} />
    <${CurrencyCard} />
    <div class="card"><h2>${t("app-account")}</h2><${Async} state=${me}>${(m: Me) => html`
      <p><strong>${m.user.firstName || m.user.username || m.user.email || t("app-user-id", { id: String(m.user.id) })}</strong>${m.user.username ? html` <span class="hint">@${m.user.username}</span>` : null}</p>
      <h3>${t("app-sign-in-methods")}</h3>
      <ul class="list compact" data-testid="identities">${m.identities.map(
        (i) => html`<li class="row-line"><span>${PROVIDERS.includes(i.provider) ? t(`app-provider-${i.provider}`) : i.provider}</span>
        <span class="mono ellipsis">${identityLabel(i, m.user)}</span></li>`,
      )}</ul>
      ${!m.identities.some((i) => i.provider === "email") && html`<${LinkEmail} onLinked=${linked} />`}
      ${!m.identities.some((i) => i.provider === "telegram") && !inTelegram() && html`<${LinkTelegram} onLinked=${linked} />`}`}<//>
    </div>
    <div class="card"><h2>${t("app-plan-limits")}</h2><${Async} state=${usage}>${(u: AccountUsage) => html`
      <p>${t("app-plan")} <strong data-testid="plan">${t(`plan-${u.subscription.plan}`)}</strong>${u.subscription.expiresAt ? ` ${t("app-plan-until", { date: fmtDate(u.subscription.expiresAt) })}` : ""}</p>
      ${(Object.entries(u.limits) as [keyof AccountUsage["limits"], number][]).map(([k, max]) => {
        const used = u.usage[k] ?? 0;
        return html`<div class="meter"><div class="row-line"><span>${LIMITS.includes(k) ? t(`app-limit-${k}`) : k}</span><span>${fmtNumber(used)} / ${fmtNumber(max)}</span></div>
          <div class="progress thin"><div class="bar" style=${`width:${Math.min(100, (used / Math.max(1, max)) * 100)}%`}></div></div></div>`;
      })}`}<//>
    </div>
    <${PasskeysCard} />
    <${TokensCard} />
    <${DomainsCard} />
    <div class="card" data-testid="postbacks-entry"><h2>${t("app-pb-title")}</h2><p class="hint">${t("app-pb-settings-hint")}</p>
      <a class="btn small" href="/app/postbacks" onClick=${linkTo("/postbacks")}>${t("app-pb-open")}</a></div>
    ${!inTelegram() && html`<button class="btn danger" onClick=${leave}>${t("app-sign-out")}</button>`}
  </section>`;
}

/**
 * The language of the bot and of this app, one choice for both: English, Russian, or the Telegram
 * app's language (the bot's rule). The app redraws in the new language at once.
 */
function LanguageCard() {
  const settings = useAsync(() => call(client.api.settings.get()), []);
  const { busy, run } = useAction();
  const choose = (value: Language | "app") =>
    run(async () => {
      const s = await call(client.api.settings.patch({ language: value === "app" ? null : value }));
      setLanguage(s.language);
    });
  return html`<div class="card"><h2>${t("app-language")}</h2><${Async} state=${settings}>${(s: {
    language_chosen: Language | null;
  }) => html`
    <p class="hint">${t("app-language-hint")}</p>
    <div class="chips" role="group" aria-label=${t("app-language")}>
      ${(["en", "ru", "app"] as const).map(
        (v) => html`<button type="button" disabled=${busy} class=${(s.language_chosen ?? "app") === v ? "chip on" : "chip"}
        aria-pressed=${(s.language_chosen ?? "app") === v} onClick=${() => choose(v)}>${t(`app-language-${v}`)}</button>`,
      )}
    </div>`}<//></div>`;
}

/** The currency a price typed without one is read in (ad prices in the bot and here): one tap each. */
function CurrencyCard() {
  const settings = useAsync(() => call(client.api.settings.get()), []);
  const { busy, run } = useAction();
  const choose = (currency: string) =>
    run(async () => {
      await call(client.api.settings.patch({ currency }));
      settings.reload();
    });
  return html`<div class="card"><h2>${t("app-currency")}</h2><${Async} state=${settings}>${(s: { currency: string }) => html`
    <p class="hint">${t("app-currency-hint")}</p>
    <div class="chips" role="group" aria-label=${t("app-currency")} data-testid="currency">
      ${CURRENCIES.map(
        (c) => html`<button type="button" disabled=${busy} class=${s.currency === c ? "chip on" : "chip"}
        aria-pressed=${s.currency === c} onClick=${() => choose(c)}>${c}</button>`,
      )}
    </div>`}<//></div>`;
}

const CURRENCIES = ["RUB", "USD", "EUR", "KZT"];

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
        await call(client.api.auth.email["send-link-otp"].post({ email: email.trim() }));
        setSent(true);
      } else {
        const r = await call(client.api.auth.email["verify-link-otp"].post({ email: email.trim(), code: code.trim() }));
        toast(r.merged ? t("app-email-linked-merged") : t("app-email-linked"));
        onLinked();
      }
    } catch (err) {
      setError(errorText(err));
    }
  };
  return html`<form class="form sub" onSubmit=${submit}><h3>${t("app-link-email")}</h3>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${
      !sent
        ? html`<input type="email" required name="linkEmail" placeholder="you@example.com" aria-label=${t("app-provider-email")} value=${email} onInput=${(e: Event) => setEmail(inputValue(e))} />`
        : html`<p class="hint">${t("app-link-email-code", { email })}</p>
        <input name="linkCode" inputmode="numeric" maxlength="6" required aria-label=${t("app-code")} value=${code} onInput=${(e: Event) => setCode(inputValue(e))} />`
    }
    <button class="btn">${sent ? t("app-confirm") : t("app-send-code")}</button></form>`;
}

function LinkTelegram({ onLinked }: { onLinked: () => void }) {
  const [open, setOpen] = useState(false);
  const [msg, setMsg] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open || !box.current) return;
    appConfig().then(
      (c) => {
        if (!c.botId) return setMsg(t("app-telegram-not-configured"));
        mountLoginWidget(
          box.current!,
          c.botId,
          async (u: WidgetUser) => {
            setError(null);
            try {
              // every field as text, as the widget's own form would post it
              const text = Object.fromEntries(Object.entries(u).map(([k, v]) => [k, String(v)]));
              const body = { ...text, id: String(u.id), first_name: u.first_name, auth_date: String(u.auth_date), hash: u.hash };
              await call(client.api.auth.msgr["link-widget"].post(body));
              toast(t("app-telegram-linked"));
              onLinked();
            } catch (e) {
              setError(errorText(e));
            }
          },
          setError,
        );
      },
      (e) => setError(errorText(e)),
    );
  }, [open]);
  return html`<div class="sub"><h3>${t("app-link-telegram")}</h3>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${!open ? html`<button class="btn" onClick=${() => setOpen(true)}>${t("app-link-telegram-button")}</button>` : html`<div ref=${box} class="widget-box"></div>`}
    ${msg && html`<p class="hint">${msg}</p>`}</div>`;
}
