/** The visitor pages: small, self-contained, mobile-friendly HTML; everything shown is escaped. */
import type { PixelTag } from "../../core/links/visit";

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A JSON value safe to embed in an inline <script> (no `</script>`, no line separators). */
function jsValue(v: unknown): string {
  return JSON.stringify(v).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

const CSS = `body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f5f6f8;color:#1d1f23;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:14px;box-shadow:0 2px 12px #0001;padding:28px 24px;margin:16px;max-width:420px;width:100%;text-align:center}
h1{font-size:1.3rem;margin:0 0 .4rem}p{color:#555;margin:.4rem 0}.big{font-size:2rem;font-weight:600;font-variant-numeric:tabular-nums;color:#1d1f23}
input,button{font:inherit;width:100%;box-sizing:border-box;padding:12px;border-radius:10px;margin-top:10px}input{border:1px solid #ccd}button{border:0;background:#2a7de1;color:#fff;font-weight:600}
.err{color:#c62828}@media(prefers-color-scheme:dark){body{background:#17181b;color:#eee}main{background:#222327}p{color:#aaa}.big{color:#eee}input{background:#17181b;color:#eee;border-color:#444}}`;

export function page(opts: { title: string; heading: string; body: string; head?: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(opts.title)}</title><style>${CSS}</style>${opts.head ?? ""}</head>` +
    `<body><main><h1>${escapeHtml(opts.heading)}</h1>${opts.body}</main></body></html>`;
}

export const notFoundPage = () =>
  page({ title: "Link not found", heading: "Link not found", body: "<p>This link does not exist or has been turned off.</p>" });

export const expiredPage = (title: string | null) =>
  page({ title: title ?? "Link expired", heading: title ?? "Link expired", body: "<p>This link has expired or reached its click limit.</p>" });

export function countdownPage(title: string | null, startsAt: Date, now: Date): string {
  const seconds = Math.max(0, Math.ceil((startsAt.getTime() - now.getTime()) / 1000));
  const script = `<script>(function(){var s=${jsValue(seconds)},el=document.getElementById("left");function f(n){var d=Math.floor(n/86400),h=Math.floor(n%86400/3600),m=Math.floor(n%3600/60),x=n%60;return(d?d+"d ":"")+[h,m,x].map(function(v){return v<10?"0"+v:v}).join(":")}` +
    `el.textContent=f(s);var t=setInterval(function(){s--;if(s<=0){clearInterval(t);location.reload();return}el.textContent=f(s)},1000)})()</script>`;
  return page({
    title: title ?? "Link not open yet",
    heading: title ?? "This link opens soon",
    body: `<p>The link opens at <time datetime="${startsAt.toISOString()}">${escapeHtml(startsAt.toISOString().replace("T", " ").slice(0, 16))} UTC</time>.</p>` +
      `<p class="big" id="left">${seconds} s</p><noscript><p>Reload the page when the time has come.</p></noscript>${script}`,
  });
}

export function passwordPage(title: string | null, error: string | null): string {
  return page({
    title: title ?? "Password required",
    heading: title ?? "Password required",
    body: `<p>Enter the password to open this link.</p>${error ? `<p class="err" role="alert">${escapeHtml(error)}</p>` : ""}` +
      `<form method="post"><input type="password" name="password" autocomplete="current-password" required autofocus aria-label="Password"><button type="submit">Open link</button></form>`,
  });
}

/** Standard snippets of each network, then the redirect (after a short pause so the pixels fire). */
function pixelSnippet(p: PixelTag): string {
  const id = jsValue(p.pixelId);
  // the networks' no-JavaScript fallback; outside <noscript> it would count every visit a second time
  const img = (src: string) => `<noscript><img src="${escapeHtml(src)}" width="1" height="1" alt="" style="display:none"></noscript>`;
  switch (p.type) {
    case "facebook":
      return `<script>!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init',${id});fbq('track','PageView');</script>` +
        img(`https://www.facebook.com/tr?id=${encodeURIComponent(p.pixelId)}&ev=PageView&noscript=1`);
    case "google":
      return `<script async src="https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(p.pixelId)}"></script><script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config',${id});</script>`;
    case "tiktok":
      return `<script>!function(w,d,t){w.TiktokAnalyticsObject=t;var ttq=w[t]=w[t]||[];ttq.methods=["page","track"];ttq.setAndDefer=function(t,e){t[e]=function(){t.push([e].concat(Array.prototype.slice.call(arguments,0)))}};for(var i=0;i<ttq.methods.length;i++)ttq.setAndDefer(ttq,ttq.methods[i]);ttq.load=function(e){var s=d.createElement("script");s.async=!0;s.src="https://analytics.tiktok.com/i18n/pixel/events.js?sdkid="+encodeURIComponent(e)+"&lib="+t;var a=d.getElementsByTagName("script")[0];a.parentNode.insertBefore(s,a)};ttq.load(${id});ttq.page()}(window,document,"ttq");</script>`;
    case "yandex":
      return `<script>(function(m,e,t,r,i,k,a){m[i]=m[i]||function(){(m[i].a=m[i].a||[]).push(arguments)};m[i].l=1*new Date();k=e.createElement(t),a=e.getElementsByTagName(t)[0],k.async=1,k.src=r,a.parentNode.insertBefore(k,a)})(window,document,"script","https://mc.yandex.ru/metrika/tag.js","ym");ym(${id},"init",{});</script>` +
        img(`https://mc.yandex.ru/watch/${encodeURIComponent(p.pixelId)}`);
    case "vk":
      return `<script>(function(){var s=document.createElement("script");s.async=1;s.src="https://vk.com/js/api/openapi.js?169";s.onload=function(){VK.Retargeting.Init(${id});VK.Retargeting.Hit()};document.head.appendChild(s)})();</script>` +
        img(`https://vk.com/rtrg?p=${encodeURIComponent(p.pixelId)}`);
  }
}

export function pixelPage(title: string | null, target: string, pixels: PixelTag[]): string {
  const t = escapeHtml(target);
  return page({
    title: title ?? "Redirecting…",
    heading: title ?? "Redirecting…",
    head: `<meta http-equiv="refresh" content="2;url=${t}">`,
    body: `<p>Taking you to the destination…</p><p><a href="${t}" rel="noreferrer">Continue</a></p>` +
      pixels.map(pixelSnippet).join("") +
      `<script>setTimeout(function(){location.replace(${jsValue(target)})},600)</script>`,
  });
}

export const lockedPage = (title: string | null, seconds: number) =>
  page({ title: title ?? "Too many attempts", heading: "Too many attempts", body: `<p>Too many wrong passwords. Try again in ${Math.ceil(seconds / 60)} min.</p>` });
