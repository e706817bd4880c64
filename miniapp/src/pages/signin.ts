/** Browser sign-in: email code, passkey, or Telegram Login Widget. */
import { useEffect, useRef, useState } from "preact/hooks";
import { call, client, saveSession } from "../api";
import { loginWithPasskey } from "../passkey";
import { ErrorBox, errorText, html, useSubmit, inputValue } from "../ui";
import { appConfig, mountLoginWidget, type WidgetUser } from "../widget";
import { t } from "../i18n";

export function SignIn() {
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const [sent, setSent] = useState(false);
  const { busy, error, setError, attempt } = useSubmit();
  const [note, setNote] = useState<string | null>(null);

  const sendCode = (e: Event) => {
    e.preventDefault();
    void attempt(async () => {
      await call(client.api.auth.email["send-otp"].post({ email: email.trim() }));
      setSent(true);
      setNote(t("app-signin-code-sent", { email: email.trim() }));
    });
  };
  const verify = (e: Event) => {
    e.preventDefault();
    void attempt(async () => saveSession(await call(client.api.auth.email["verify-otp"].post({ email: email.trim(), code: code.trim() }))));
  };
  const passkey = () =>
    attempt(async () => {
      setNote(t("app-signin-passkey-waiting"));
      try {
        saveSession(await loginWithPasskey(email.trim() || undefined));
      } finally {
        setNote(null);
      }
    });

  return html`<div class="signin">
    <h1>${t("app-signin-title")}</h1>
    <p class="hint">${t("app-signin-hint")}</p>
    ${error && html`<${ErrorBox} error=${error} />`}
    ${note && !error && html`<p class="note">${note}</p>`}
    ${
      !sent
        ? html`<form onSubmit=${sendCode} class="card">
          <label>${t("app-provider-email")}<input type="email" name="email" required autocomplete="username webauthn" value=${email}
            onInput=${(e: Event) => setEmail(inputValue(e))} placeholder="you@example.com" /></label>
          <button class="btn primary" disabled=${busy}>${t("app-send-code")}</button>
          <button type="button" class="btn" disabled=${busy} onClick=${passkey}>${t("app-signin-passkey")}</button>
          <p class="hint">${t("app-signin-passkey-hint")}</p>
        </form>`
        : html`<form onSubmit=${verify} class="card">
          <label>${t("app-code")}<input name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required
            value=${code} onInput=${(e: Event) => setCode(inputValue(e))} placeholder="123456" /></label>
          <button class="btn primary" disabled=${busy}>${t("app-signin-title")}</button>
          <button type="button" class="link-btn" onClick=${() => (setSent(false), setCode(""), setNote(null))}>${t("app-signin-other-email")}</button>
        </form>`
    }
    <${TelegramSignIn} onError=${setError} />
  </div>`;
}

function TelegramSignIn({ onError }: { onError: (m: string) => void }) {
  const [open, setOpen] = useState(false);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open || !box.current) return;
    appConfig().then(
      (c) => {
        if (!c.botId) return setUnavailable(t("app-signin-telegram-not-configured"));
        mountLoginWidget(
          box.current!,
          c.botId,
          async (u: WidgetUser) => {
            try {
              saveSession(await call(client.api.auth["login-widget"].post(u)));
            } catch (e) {
              onError(errorText(e));
            }
          },
          setUnavailable,
        );
      },
      (e) => setUnavailable(errorText(e)),
    );
  }, [open]);
  return html`<div class="card">
    ${
      !open
        ? html`<button class="btn" onClick=${() => setOpen(true)}>${t("app-signin-telegram")}</button>`
        : html`<div ref=${box} class="widget-box"></div>${unavailable && html`<p class="hint">${unavailable}</p>`}`
    }
  </div>`;
}
