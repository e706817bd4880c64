/** The dashboard's custom-domain card: the TXT record to publish and the verify action, against a real DNS server. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { openSignedIn, withBrowserApp, type Server } from "../helpers/browser";
import { startDnsServer } from "../helpers/dns-server";
import { watchViolations } from "../helpers/csp";

let browser: Browser;
let s: Server;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
beforeAll(async () => (dns = await startDnsServer())); // listening before the server reads its address
withBrowserApp(
  (app) => ({ server: s, browser } = app),
  () => ({ env: { DNS_SERVERS: dns.address } }),
);
afterAll(() => dns.close());

describe("settings: custom domains", () => {
  test("add a domain, see its TXT record, verify fails until the record is published, then it is verified", async () => {
    const { token } = await s.emailUser("domains@example.com");
    const { page, context, problems } = await openSignedIn(browser, s.baseUrl, token);
    try {
      const violations = await watchViolations(page);
      await page.goto(`${s.baseUrl}/app/settings`);
      await page.getByText("No custom domains.").waitFor();
      await page.getByLabel("Domain name").fill("Go.Brand.Example");
      await page.getByRole("button", { name: "Add a domain" }).click();
      const record = page.getByTestId("verification");
      await record.waitFor();
      expect(await page.getByTestId("domains").getByText("go.brand.example", { exact: true }).count()).toBe(1);
      expect(await page.getByTestId("domains").getByText("not verified").count()).toBe(1);
      const value = (await record.locator("code").nth(2).innerText()).trim();
      expect((await record.locator("code").nth(0).innerText()).trim()).toBe("TXT");
      expect((await record.locator("code").nth(1).innerText()).trim()).toBe("_linkbot-challenge.go.brand.example");
      expect(value).toMatch(/^linkbot-verify=[0-9a-f]{32}$/);

      await record.getByRole("button", { name: "Verify" }).click();
      await page.getByRole("alert").filter({ hasText: "Publish a TXT record at _linkbot-challenge.go.brand.example" }).first().waitFor();

      dns.setTxt("_linkbot-challenge.go.brand.example", value);
      await record.getByRole("button", { name: "Verify" }).click();
      await page.getByTestId("domains").getByText("verified", { exact: true }).waitFor();
      expect(await page.getByTestId("verification").count()).toBe(0);
      expect(violations).toEqual([]);
      // the one refused request is the verify before the record existed
      expect(problems.filter((p) => !p.startsWith("console:"))).toEqual([
        expect.stringMatching(/^http 409 POST .*\/api\/domains\/\d+\/verify$/),
      ]);
    } finally {
      await context.close();
    }
  });
});
