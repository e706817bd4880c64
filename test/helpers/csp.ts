/** Content-Security-Policy violations as a real browser reports them. */
import type { Page } from "playwright-core";

/**
 * Collects the policy's console messages and `securitypolicyviolation` events of every document
 * `page` shows from now on; the returned array fills as they come.
 */
export async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on("console", (m) => /Content Security Policy|Refused to/i.test(m.text()) && seen.push(`console: ${m.text()}`));
  await page.exposeFunction("__cspViolation", (text: string) => seen.push(`event: ${text}`));
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (e) => (window as any).__cspViolation(`${e.violatedDirective} ${e.blockedURI}`)),
  );
  return seen;
}
